import type { AppConfig } from '../../../app.config'

export type EngineStatus = {
  id: 'database' | 'storage' | 'print' | 'payments' | 'analytics' | 'rate-limits' | 'email'
  label: string
  /** The engine's product name, never an address or key. */
  engine: string
  mode: 'embedded' | 'production'
  explanation: string
}

export type SwitchStatus = { id: 'demo' | 'maintenance'; label: string; on: boolean; explanation: string }

export type StatusSummary = { engines: EngineStatus[]; switches: SwitchStatus[]; version: string | null }

type StatusConfig = Pick<
  AppConfig,
  'databaseUrl' | 'storage' | 'printify' | 'stripe' | 'sessionReplayProjectId' | 'redisUrl' | 'smtpUrl' | 'demoMode' | 'maintenance'
>

type EngineChoice = {
  id: EngineStatus['id']
  label: string
  /** Whether the production engine is configured. */
  production: boolean
  embedded: [name: string, explanation: string]
  chosen: [name: string, explanation: string]
}

function engine({ id, label, production, embedded, chosen }: EngineChoice): EngineStatus {
  const [name, explanation] = production ? chosen : embedded
  return { id, label, engine: name, mode: production ? 'production' : 'embedded', explanation }
}

/**
 * /utils/status: which engines this server runs on (ARCHITECTURE.md "Embedded by default"). Only
 * names and booleans are read out of the configuration, so no secret, host or URL can reach the page.
 */
export function statusSummaryOf(config: StatusConfig, version: string | null): StatusSummary {
  return {
    engines: (
      [
        {
          id: 'database',
          label: 'Database',
          production: config.databaseUrl !== null,
          embedded: ['PGlite', 'Postgres built into the server, kept in its data folder.'],
          chosen: ['PostgreSQL', 'A separate PostgreSQL server holds the store’s data.'],
        },
        {
          id: 'storage',
          label: 'Photo storage',
          production: config.storage.kind === 's3',
          embedded: ['Local disk', 'Photos and print files are kept in the server’s data folder.'],
          chosen: ['S3', 'Photos and print files are kept in an S3-compatible bucket.'],
        },
        {
          id: 'print',
          label: 'Print provider',
          production: config.printify !== null,
          embedded: ['Local', 'Orders move through production on a timer; nothing is printed or shipped.'],
          chosen: ['Printify', 'Paid orders go to Printify to be printed and shipped.'],
        },
        {
          id: 'payments',
          label: 'Payments',
          production: config.stripe !== null,
          embedded: ['Local checkout', 'Keepsake’s own checkout page takes test cards; no money moves.'],
          chosen: ['Stripe', 'Shoppers pay on Stripe’s hosted checkout.'],
        },
        {
          id: 'analytics',
          label: 'Analytics',
          production: config.sessionReplayProjectId !== null,
          embedded: ['Off', 'Events are kept in Keepsake’s own log only; no session replay.'],
          chosen: ['PostHog', 'Events and session replay also go to PostHog.'],
        },
        {
          id: 'rate-limits',
          label: 'Rate limits',
          production: config.redisUrl !== null,
          embedded: ['In-process', 'Counted in this server’s memory: reset on restart, not shared between servers.'],
          chosen: ['Redis', 'Counted in Redis, shared by every server.'],
        },
        {
          id: 'email',
          label: 'E-mail',
          production: config.smtpUrl !== null,
          embedded: ['Outbox only', 'E-mails are recorded in the outbox and not sent.'],
          chosen: ['SMTP', 'E-mails are sent through an SMTP server and recorded in the outbox.'],
        },
      ] satisfies EngineChoice[]
    ).map(engine),
    switches: [
      {
        id: 'demo',
        label: 'Demo mode',
        on: config.demoMode,
        explanation: config.demoMode ? 'Demo families, their albums and the demo sign-in are available.' : 'Real accounts only; the demo tools are hidden.',
      },
      {
        id: 'maintenance',
        label: 'Maintenance mode',
        on: config.maintenance,
        explanation: config.maintenance ? 'Shoppers see the maintenance screen.' : 'The store is open.',
      },
    ],
    version,
  }
}
