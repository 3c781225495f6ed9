import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts (the raw MIME
 * text), for tests of the mail path with SMTP_URL. `refuse` makes it answer 550 to recipients while it
 * returns true, as a mailbox that does not exist would; `stall` makes it never answer a recipient while it returns true.
 */
export async function startSmtpCapture(options: { refuse?: () => boolean; stall?: () => boolean; onMessage?: (raw: string) => void } = {}) {
  const messages: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      // A server that stalls mid-conversation: it greeted, and never answers this recipient.
      if (options.stall?.()) return
      if (options.refuse?.()) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
      callback()
    },
    onData(stream, _session, callback) {
      let data = ''
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()))
      stream.on('end', () => {
        messages.push(data)
        options.onMessage?.(data)
        callback()
      })
    },
  })
  // A client killed mid-conversation (the crash tests kill the store at its crash points) resets its connection: the
  // server says so with an 'error' event, which unheard would be an uncaught exception in the test run. It serves on.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.warn(`[smtp-capture] ${error.message}`)
  })
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A captured message as a reader sees it: quoted-printable soft line breaks joined and `=XX` escapes decoded. */
export function readableMessage(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}
