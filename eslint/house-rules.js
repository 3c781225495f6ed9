/**
 * The house's import rules (ARCHITECTURE.md "Rules of the house"), as one ESLint rule that resolves
 * `~/…` and relative imports to files under app/ and checks where each may point.
 */
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const app = path.join(root, 'app')

/** Which floors each floor may import, besides itself. */
const mayImport = {
  routes: ['features', 'components', 'lib', 'compositor', 'catalogue', 'contract', 'styles', 'entry'],
  features: ['components', 'lib', 'compositor', 'catalogue', 'contract', 'styles'],
  components: ['lib', 'compositor', 'catalogue', 'contract', 'styles'],
  lib: ['catalogue', 'contract', 'compositor', 'observability'],
  compositor: ['catalogue', 'contract'],
  contract: ['catalogue'],
  catalogue: [],
  api: ['compositor', 'catalogue', 'contract', 'observability'],
  // Logs and metrics (decision 045): leaf modules the server's every floor writes to; plain Node loads them too.
  observability: [],
  entry: ['routes', 'features', 'components', 'lib', 'compositor', 'catalogue', 'contract', 'api', 'styles', 'entry', 'observability'],
}

/**
 * Deliberate compositions between features (README "Layout"); any other feature → feature import is an error.
 * Every feature may ask who is signed in (account).
 */
export const compositions = {
  cart: ['bundles'],
  designer: ['photos', 'photo-products', 'cart'],
  egifts: ['cart'],
  loop: ['photo-products', 'smokescreens', 'bundles', 'photos'],
  '*': ['account'],
}

/** The one route that mounts the API (routes/v1/$.ts) may import it. */
const mountsApi = (file) => file === path.join(app, 'routes', 'v1', '$.ts')

function floorOf(file) {
  const rel = path.relative(app, file)
  if (rel.startsWith('..')) return null
  const [top] = rel.split(path.sep)
  return rel.includes(path.sep) ? top : 'entry'
}

const featureOf = (file) => path.relative(path.join(app, 'features'), file).split(path.sep)[0]

/** Browser code: anything under routes, features, components and lib but server functions, middleware and server-only files. */
function runsInBrowser(file) {
  const floor = floorOf(file)
  if (!['routes', 'features', 'components', 'lib'].includes(floor)) return false
  return !/\.(functions|server|middleware)\.tsx?$/.test(file) && !mountsApi(file)
}

function resolve(from, spec) {
  if (spec.startsWith('~/')) return path.join(app, spec.slice(2))
  if (spec.startsWith('.')) return path.resolve(path.dirname(from), spec)
  return null
}

const importBoundaries = {
  meta: { type: 'problem', schema: [], messages: { wrongWay: '{{why}}' } },
  create(context) {
    const file = context.filename
    const floor = floorOf(file)
    if (!floor) return {}
    function check(node, spec) {
      if (typeof spec !== 'string') return
      const target = resolve(file, spec)
      if (!target) return
      const to = floorOf(target)
      if (!to) return
      const report = (why) => context.report({ node, messageId: 'wrongWay', data: { why } })
      if (runsInBrowser(file) && (to === 'api' || to === 'observability' || /\.server(\.tsx?)?$/.test(target))) {
        return report(`Browser code may not import server-only code (${spec}): reach it through a server function`)
      }
      if (to === 'api' && mountsApi(file)) return
      // The generated route tree's types name every page; any floor may read them.
      if (target === path.join(app, 'routeTree.gen')) return
      if (to !== floor && !mayImport[floor].includes(to)) {
        return report(
          `app/${floor} may not import app/${to} (${spec}): imports flow routes → features → components/lib/compositor → catalogue/contract, and api → compositor/catalogue/contract`,
        )
      }
      if (floor === 'features' && to === 'features') {
        const mine = featureOf(file)
        const theirs = featureOf(target)
        if (mine !== theirs && !(compositions[mine] ?? []).includes(theirs) && !compositions['*'].includes(theirs)) {
          report(`features/${mine} may not import features/${theirs} (${spec}): move the shared piece to components/ or lib/, or list the composition`)
        }
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    }
  },
}

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([.~][^'"]*)['"]|import\(\s*['"]([.~][^'"]*)['"]\s*\)/g

function toFile(base) {
  for (const ext of EXTENSIONS) {
    const candidate = base + ext
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate
  }
  return null
}

/** Every file under app/ and the app files it imports, read once per lint run. */
let graph = null
function importGraph() {
  if (graph) return graph
  graph = new Map()
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.tsx?$/.test(entry.name) && entry.name !== 'routeTree.gen.ts') {
        const source = fs.readFileSync(full, 'utf8')
        const targets = []
        for (const match of source.matchAll(SPECIFIER)) {
          const base = resolve(full, match[1] ?? match[2])
          const file = base && toFile(base)
          if (file && file.startsWith(app)) targets.push(file)
        }
        graph.set(full, targets)
      }
    }
  }
  walk(app)
  return graph
}

/** A path of imports from `from` back to `to`, or null. */
function pathBack(from, to) {
  const seen = new Set()
  const stack = [[from, [from]]]
  while (stack.length) {
    const [file, trail] = stack.pop()
    if (file === to) return trail
    if (seen.has(file)) continue
    seen.add(file)
    for (const next of importGraph().get(file) ?? []) stack.push([next, [...trail, next]])
  }
  return null
}

const noImportCycle = {
  meta: { type: 'problem', schema: [], messages: { cycle: 'Import circle: {{trail}}' } },
  create(context) {
    const file = context.filename
    if (!file.startsWith(app)) return {}
    function check(node, spec) {
      if (typeof spec !== 'string') return
      const base = resolve(file, spec)
      const target = base && toFile(base)
      if (!target || !target.startsWith(app)) return
      const trail = pathBack(target, file)
      if (trail) context.report({ node, messageId: 'cycle', data: { trail: [file, ...trail].map((f) => path.relative(root, f)).join(' → ') } })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    }
  },
}

export default { rules: { 'import-boundaries': importBoundaries, 'no-import-cycle': noImportCycle } }
