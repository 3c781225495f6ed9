/**
 * The store's e-mail frame and escaping, with no imports of its own (mail.ts, the order e-mails and
 * the sign-in link all use it without an import cycle): cream page, one white card up to 560 px wide,
 * table-based with inline styles, as mail programs need.
 */
export const ink = '#2b2024'
export const soft = '#6b5d60'
export const cream = '#fbf6ee'
export const cranberry = '#a3243b'
const card = '#ffffff'

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
/** Text from shoppers goes into e-mail HTML only through this. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!)
export const e = escapeHtml

/** `footer` is HTML the caller built (escaped); `body` likewise. */
export function mailLayout({ title, preheader, body, footer }: { title: string; preheader: string; body: string; footer: string }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(title)}</title></head>
<body style="margin:0;padding:0;background:${cream};color:${ink};font-family:Helvetica,Arial,sans-serif">
<div style="display:none;max-height:0;overflow:hidden;opacity:0">${e(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${cream}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;width:100%">
<tr><td style="padding:0 8px 16px;font-size:14px;letter-spacing:.08em;text-transform:uppercase;font-weight:bold;color:${cranberry}">Keepsake</td></tr>
<tr><td style="background:${card};border-radius:16px;padding:28px 20px">
${body}
</td></tr>
<tr><td style="padding:20px 8px;font-size:13px;line-height:1.5;color:${soft}">${footer}</td></tr>
</table>
</td></tr>
</table>
</body></html>`
}

export const button = (href: string, label: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0 4px"><tr><td style="background:${cranberry};border-radius:999px"><a href="${e(href)}" style="display:inline-block;padding:12px 24px;color:#ffffff;text-decoration:none;font-weight:bold;font-size:16px">${e(label)}</a></td></tr></table>`
