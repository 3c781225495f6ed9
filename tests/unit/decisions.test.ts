import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/** What docs/decisions/README.md asks of a note and of its index; the README says why. */
const headingPattern = /^# (\d{3})\. \S.*$/
const datePattern = /^Date: (\d{4}-\d{2}-\d{2})$/
const statusPattern = /^Status: (.+)$/
const notePattern = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/
// A status clause once the words in brackets are left out: the first says whether the note stands, the later ones
// name the notes that took part of it over or added to it.
const firstClause = /^(?:accepted|(?:amended|superseded) by \d{3}(?:, \d{3})*)$/
const laterClause = /^(?:partly superseded|amended) by \d{3}(?:, \d{3})*$/
// | [001](001-node-22-from-npm.md) | Title | 2026-11-22 | accepted |, or a number reserved for a note being written.
const rowPattern = /^\| (?:\[(\d{3})\]\(([^)]+)\)|(\d{3})) \| (.+?) \| (.+?) \| (.+?) \|$/
const reservedStatus = /being written/

interface Note {
  file: string
  number: string
  title: string
  date: string
  status: string
}

/** Every way the decision notes in `files` (name → text, README.md among them) break the format, as sentences. */
function problemsOf(files: Record<string, string>): string[] {
  const problems: string[] = []
  const notes = new Map<string, Note>()
  // Every numbered file, read well or not, so a broken note is reported once and not again as absent.
  const numbered = new Map<string, string>()
  for (const [file, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    if (file === 'README.md') continue
    const name = notePattern.exec(file)
    if (!name) {
      problems.push(`${file}: a note is named NNN-slug.md`)
      continue
    }
    const number = name[1]!
    const other = numbered.get(number)
    if (other) problems.push(`${file}: number ${number} is ${other}'s already`)
    numbered.set(number, file)
    const lines = text.split('\n')
    const heading = headingPattern.exec(lines[0]!)
    if (!heading || heading[1] !== number) {
      problems.push(`${file}: the first line must be "# ${number}. Title", not "${lines[0]}"`)
      continue
    }
    // The Date and Status lines come next, in that order, with only blank lines around them.
    const [dateLine, statusLine] = lines.slice(1).filter((line) => line.trim() !== '')
    const date = datePattern.exec(dateLine ?? '')
    if (!date || Number.isNaN(Date.parse(date[1]!))) problems.push(`${file}: "Date: YYYY-MM-DD" must follow the heading`)
    const status = statusPattern.exec(statusLine ?? '')
    if (!status && date) problems.push(`${file}: "Status: …" must follow the Date line`)
    if (!date || !status) continue
    const [first, ...later] = status[1]!.replace(/ \([^()]*\)/g, '').split('; ')
    if (!firstClause.test(first!) || !later.every((clause) => laterClause.test(clause))) {
      problems.push(`${file}: "Status: ${status[1]}" is not one the README allows`)
    }
    notes.set(number, { file, number, title: lines[0]!.slice(`# ${number}. `.length), date: date[1]!, status: status[1]! })
  }

  for (const note of notes.values()) {
    const named = note.status.replace(/ \([^()]*\)/g, '').match(/\b\d{3}\b/g) ?? []
    for (const number of named) {
      if (number === note.number) problems.push(`${note.file}: its status names itself`)
      else if (!numbered.has(number)) problems.push(`${note.file}: its status names decision ${number}, which has no note`)
    }
  }

  const readme = files['README.md']
  if (readme === undefined) return [...problems, 'README.md: the index is missing']
  const rows = new Map<string, string>()
  for (const line of readme.split('\n')) {
    const row = rowPattern.exec(line)
    if (!row) continue
    const [, linked, target, reserved, title, date, status] = row
    const number = (linked ?? reserved)!
    if (rows.has(number)) problems.push(`README.md: decision ${number} has two rows`)
    rows.set(number, line)
    const note = notes.get(number)
    if (reserved !== undefined) {
      // A number reserved for a note in progress stays acceptable when that note arrives, until its row is written.
      if (!reservedStatus.test(status!)) problems.push(`README.md: the row of ${number} links no note`)
      continue
    }
    if (!note) {
      if (!numbered.has(number)) problems.push(`README.md: the row of ${number} names a note that does not exist`)
      continue
    }
    const expected = rowOf(note)
    if (target !== note.file || title !== note.title || date !== note.date || status !== note.status) {
      problems.push(`README.md: the row of ${number} must read\n${expected}\nnot\n${line}`)
    }
  }
  for (const note of notes.values()) {
    if (!rows.has(note.number)) problems.push(`README.md: the index has no row for ${note.file}; add\n${rowOf(note)}`)
  }
  const order = [...rows.keys()]
  if (order.join() !== [...order].sort().join()) problems.push('README.md: the index must be in number order')
  return problems
}

function rowOf(note: Note): string {
  return `| [${note.number}](${note.file}) | ${note.title} | ${note.date} | ${note.status} |`
}

const folder = new URL('../../docs/decisions/', import.meta.url)

function decisionFiles(): Record<string, string> {
  const names = readdirSync(folder).filter((name) => name.endsWith('.md'))
  return Object.fromEntries(names.map((name) => [name, readFileSync(new URL(name, folder), 'utf8')]))
}

const note = (number: string, title: string, status = 'accepted') => `# ${number}. ${title}\n\nDate: 2026-12-07\nStatus: ${status}\n\n**Context.** Why.\n`
const indexOf = (...rows: string[]) => `# Decisions\n\n| number | title | date | status |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`
const row = (file: string, title: string, status = 'accepted') => `| [${file.slice(0, 3)}](${file}) | ${title} | 2026-12-07 | ${status} |`

describe('the decision notes in docs/decisions', () => {
  it('each have their heading, Date and Status, a number of their own, and their row in the README index', () => {
    const files = decisionFiles()
    expect(Object.keys(files).length).toBeGreaterThan(70)
    expect(problemsOf(files)).toEqual([])
  })
})

describe('the decision notes check', () => {
  const good = {
    '001-one.md': note('001', 'One'),
    '002-two.md': note('002', 'Two', 'accepted; partly superseded by 003 (its second half; and its words)'),
    '003-three.md': note('003', 'Three', 'amended by 001 (a date), 002'),
    'README.md': indexOf(
      row('001-one.md', 'One'),
      row('002-two.md', 'Two', 'accepted; partly superseded by 003 (its second half; and its words)'),
      row('003-three.md', 'Three', 'amended by 001 (a date), 002'),
      '| 004 | Four, in progress | — | (2026-12-07, being written) |',
    ),
  }

  it('passes notes written to the format, and a reserved number whose note has arrived', () => {
    expect(problemsOf(good)).toEqual([])
    expect(problemsOf({ ...good, '004-four.md': note('004', 'Four, in progress') })).toEqual([])
  })

  it('refuses a note without its heading, Date or Status line', () => {
    expect(problemsOf({ ...good, '001-one.md': '# 001 — One\n\nDate: 2026-12-07\nStatus: accepted\n' })).toContain(
      '001-one.md: the first line must be "# 001. Title", not "# 001 — One"',
    )
    expect(problemsOf({ ...good, '001-one.md': '# 001. One\n\nStatus: accepted\n' })[0]).toBe('001-one.md: "Date: YYYY-MM-DD" must follow the heading')
    expect(problemsOf({ ...good, '001-one.md': '# 001. One\n\nDate: 2026-12-07\n\nText.\n' })[0]).toBe('001-one.md: "Status: …" must follow the Date line')
    expect(problemsOf({ ...good, '001-one.md': note('001', 'One', 'settled') })).toContain('001-one.md: "Status: settled" is not one the README allows')
  })

  it('refuses two notes under one number', () => {
    expect(problemsOf({ ...good, '001-also-one.md': note('001', 'Also one') })).toContain("001-one.md: number 001 is 001-also-one.md's already")
  })

  it('refuses a status that names a note that does not exist', () => {
    const files = {
      ...good,
      '001-one.md': note('001', 'One', 'superseded by 009'),
      'README.md': good['README.md'].replace('| accepted |', '| superseded by 009 |'),
    }
    expect(problemsOf(files)).toEqual(['001-one.md: its status names decision 009, which has no note'])
  })

  it('refuses a note missing from the index, or a row that says something else', () => {
    expect(problemsOf({ ...good, '005-five.md': note('005', 'Five') })).toEqual([
      'README.md: the index has no row for 005-five.md; add\n| [005](005-five.md) | Five | 2026-12-07 | accepted |',
    ])
    const stale = { ...good, '001-one.md': note('001', 'One', 'amended by 003') }
    expect(problemsOf(stale)).toEqual([
      'README.md: the row of 001 must read\n| [001](001-one.md) | One | 2026-12-07 | amended by 003 |\nnot\n| [001](001-one.md) | One | 2026-12-07 | accepted |',
    ])
  })
})
