/**
 * Shows an e-mail's HTML isolated from the portal: `sandbox=""` gives the frame an opaque origin with
 * scripts, forms, popups and top navigation disabled, so the body can neither run code nor read the
 * portal's DOM, storage or cookies. The server has already sanitised the HTML; this is the second wall.
 * The document's own CSP forbids loading anything (no tracking pixels), inline data images excepted.
 */
export function emailDocument(bodyHtml: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><style>body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:14px;line-height:1.5;color:#212529;margin:12px;overflow-wrap:anywhere}pre{white-space:pre-wrap}table{border-collapse:collapse}</style></head><body>${bodyHtml}</body></html>`;
}

export function EmailBodyFrame({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      sandbox=""
      srcDoc={emailDocument(html)}
      title={title}
      referrerPolicy="no-referrer"
      style={{
        width: '100%',
        height: '60vh',
        minHeight: 320,
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 4,
        background: 'white',
      }}
    />
  );
}
