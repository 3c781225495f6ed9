import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const eslint = new ESLint({ cwd: root })

/** The house rules' messages for `code` as if it were the file at `file` (relative to the repository). */
async function houseMessages(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return result!.messages.filter((m) => m.ruleId?.startsWith('house/')).map((m) => m.message)
}

describe('the import rules of the house', () => {
  it.each([
    ['app/lib/x.ts', "import { getCart } from '~/features/cart/cart.functions'\nexport const x = getCart", 'app/lib may not import app/features'],
    ['app/components/X.tsx', "import { cartRoutes } from '../api/routes/cart'\nexport const x = cartRoutes", 'Browser code may not import server-only code'],
    ['app/contract/x.ts', "import { formatDay } from '../lib/dates'\nexport const x = formatDay", 'app/contract may not import app/lib'],
    ['app/catalogue/x.ts', "import { cartSchema } from '../contract/cart'\nexport const x = cartSchema", 'app/catalogue may not import app/contract'],
    ['app/api/services/x.ts', "import { notify } from '../../lib/toast'\nexport const x = notify", 'app/api may not import app/lib'],
    [
      'app/features/egifts/X.tsx',
      "import { OfferWall } from '~/features/fmn/OfferWall'\nexport const x = OfferWall",
      'features/egifts may not import features/fmn',
    ],
    [
      'app/features/cart/X.tsx',
      "import { apiForRequest } from '~/lib/api-call.server'\nexport const x = apiForRequest",
      'Browser code may not import server-only code',
    ],
  ])('refuses %s importing across the house: %s', async (file, code, message) => {
    expect((await houseMessages(file, code)).join('\n')).toContain(message)
  })

  it.each([
    ['app/features/loop/X.tsx', "import { BundleShelf } from '~/features/bundles/BundleShelf'\nexport const x = BundleShelf"],
    ['app/features/referral/X.tsx', "import { currentUserQuery } from '~/features/account/account.functions'\nexport const x = currentUserQuery"],
    ['app/features/cart/cart2.functions.ts', "import { apiMiddleware } from '~/lib/api.middleware'\nexport const x = apiMiddleware"],
    ['app/api/services/x.ts', "import { cartSchema } from '../../contract/cart'\nexport const x = cartSchema"],
  ])('allows %s: %s', async (file, code) => {
    expect(await houseMessages(file, code)).toEqual([])
  })

  it('names an import circle', async () => {
    // catalogue/pricing.ts imports nothing from contract; a file it is imported by, importing it back, closes a circle.
    const messages = await houseMessages('app/contract/bundles.ts', "import { cartSchema } from './cart'\nexport const x = cartSchema")
    expect(messages.join('\n')).toMatch(/Import circle: app\/contract\/bundles\.ts → app\/contract\/cart\.ts → .*app\/contract\/bundles\.ts/)
  })
})
