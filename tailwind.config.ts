import type { Config } from 'tailwindcss'

/** Keepsake's theme tokens (STYLE.md "Look and feel"): cream, ink, cranberry, pine and gold, all AA on cream. */
export default {
  content: ['./app/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        cream: { DEFAULT: '#fbf6ee', deep: '#f3e9d8', card: '#fffdf9' },
        ink: { DEFAULT: '#2b2320', soft: '#5e524c', faint: '#8a7d75' },
        cranberry: { DEFAULT: '#a3213a', dark: '#7f172c', tint: '#f7e3e6' },
        pine: { DEFAULT: '#1f5c45', dark: '#15422f', tint: '#e2efe8' },
        gold: { DEFAULT: '#c9962b', dark: '#7a5a12', tint: '#f7ecd2' },
      },
      fontFamily: {
        sans: ['"Inter Variable"', 'ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'sans-serif'],
      },
      borderRadius: { card: '1.25rem' },
      boxShadow: { card: '0 1px 2px rgb(43 35 32 / 0.06), 0 8px 24px -12px rgb(43 35 32 / 0.18)' },
    },
  },
} satisfies Config
