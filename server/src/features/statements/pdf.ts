import type { Statement } from '@lp/contract/statements/schemas';
import { formatAmount } from '@lp/domain/amounts';
import { displayProducts, type PieSlice, pieSlices } from '@lp/domain/statement';
import PDFDocument from 'pdfkit';

/*
 * The summary statement as a PDF (spec 001 §2.2, §7 getPdf): the page's header, both tables and both pie
 * charts, drawn with pdfkit's vector primitives (no browser, no images), so the server answers /api/getPdf
 * and attaches the same document to the statement e-mails.
 *
 * The PDF is tagged (decision 060), so a screen reader reads it in order with its structure: Document → H1 and
 * the header's paragraphs, H2 per section, Table → TR → TH (column headers) / TD, each chart's title (H3) and its
 * legend as a list. Rules and pie wedges are artifacts: the legend and the tables carry every value they show.
 */

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

const MARGIN = 36;
const ROW_HEIGHT = 16;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
/** Colour-blind-friendly palette (Okabe–Ito and Tableau), cycled for wedges beyond ten. */
const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#4E79A7',
  '#9C755F',
  '#BAB0AC',
];

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

const poColumns: Column[] = [
  { title: 'PO', width: 90 },
  { title: 'Entitlement', width: 140 },
  { title: 'Start Date', width: 66 },
  { title: 'Expiration Date', width: 76 },
  { title: 'Balance on Period Start Date', width: 120, align: 'right' },
  { title: 'Balance on Period End Date', width: 120, align: 'right' },
  { title: 'Period Used', width: 84, align: 'right' },
  { title: 'Currency', width: 58 },
];
const productColumns: Column[] = [
  { title: 'Product', width: 300 },
  { title: 'Period Used', width: 120, align: 'right' },
  { title: 'Currency', width: 80 },
];

/** Moves to a new page when `needed` points do not fit below the current position. */
function ensureSpace(doc: Doc, needed: number) {
  if (doc.y + needed > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

/** A structure element of `parent` whose content is what `draw` puts on the page, drawn now. */
function tag(doc: Doc, parent: Struct, type: string, draw: () => void, options: object = {}): Struct {
  const element = doc.struct(type, options, [draw]);
  parent.add(element);
  return element;
}

/** A structure element that holds others (Table, TR, L); the caller ends it when its children are added. */
function group(doc: Doc, parent: Struct, type: string): Struct {
  const element = doc.struct(type);
  parent.add(element);
  return element;
}

/** Drawing that is no content (rules, wedges, swatches): marked as an artifact, which screen readers skip. */
function artifact(doc: Doc, draw: () => void) {
  doc.markContent('Artifact', { type: 'Layout' });
  draw();
  doc.endMarkedContent();
}

/**
 * A cell spanning `columns` columns. pdfkit's own tables set the Table attributes on the element's dictionary; its
 * structure options have no ColSpan.
 */
function spanColumns(cell: Struct, columns: number) {
  (cell as unknown as { dictionary: { data: Record<string, unknown> } }).dictionary.data.A = {
    O: 'Table',
    ColSpan: columns,
  };
}

/** One drawn row of a table, tagged as TR with a TH (column header) or TD per cell under `parent`. */
function tableRow(
  doc: Doc,
  parent: Struct,
  columns: Column[],
  cells: string[],
  opts: { x?: number; header?: boolean } = {},
) {
  // Header titles may wrap onto a second line; data cells stay on one line (cut with an ellipsis).
  doc
    .font(opts.header ? BOLD : FONT)
    .fontSize(8.5)
    .fillColor('#000000');
  const height = opts.header
    ? Math.max(...columns.map((c, i) => doc.heightOfString(cells[i] ?? '', { width: c.width - 6 }))) + 8
    : ROW_HEIGHT;
  ensureSpace(doc, height);
  const y = doc.y;
  const left = opts.x ?? MARGIN;
  const row = group(doc, parent, 'TR');
  let x = left;
  columns.forEach((c, i) => {
    const cellX = x;
    tag(
      doc,
      row,
      opts.header ? 'TH' : 'TD',
      () =>
        doc.text(cells[i] ?? '', cellX + 3, y + 4, {
          width: c.width - 6,
          height: height - 4,
          align: c.align ?? 'left',
          lineBreak: !!opts.header,
          ellipsis: true,
        }),
      opts.header ? { scope: 'Column' } : {},
    );
    x += c.width;
  });
  row.end();
  const width = columns.reduce((s, c) => s + c.width, 0);
  artifact(doc, () =>
    doc
      .moveTo(left, y + height)
      .lineTo(left + width, y + height)
      .lineWidth(0.5)
      .strokeColor('#cccccc')
      .stroke(),
  );
  doc.x = MARGIN;
  doc.y = y + height;
}

function heading(doc: Doc, parent: Struct, text: string) {
  ensureSpace(doc, 60);
  doc.moveDown(0.8).font(BOLD).fontSize(13).fillColor('#000000');
  tag(doc, parent, 'H2', () => doc.text(text, MARGIN, doc.y));
  doc.moveDown(0.3);
}

/** A pie of vector wedges with a legend (name, amount, share) to its right. */
function pieChart(doc: Doc, parent: Struct, title: string, slices: PieSlice[]) {
  const radius = 70;
  const legendRows = Math.max(slices.length, 1);
  ensureSpace(doc, Math.max(2 * radius + 30, legendRows * 14 + 30));
  doc.font(BOLD).fontSize(10).fillColor('#000000');
  tag(doc, parent, 'H3', () => doc.text(title, MARGIN, doc.y));
  const top = doc.y + 6;
  const cx = MARGIN + radius;
  const cy = top + radius;
  const total = slices.reduce((s, p) => s + p.value, 0);
  if (total <= 0) {
    doc.font(FONT).fontSize(9);
    tag(doc, parent, 'P', () => doc.text('No usage in this period.', MARGIN, top));
    doc.y = top + 20;
    return;
  }
  artifact(doc, () => {
    let angle = -Math.PI / 2;
    slices.forEach((slice, i) => {
      const colour = PALETTE[i % PALETTE.length];
      const sweep = (slice.value / total) * 2 * Math.PI;
      if (slices.length === 1) {
        doc.circle(cx, cy, radius).fill(colour);
      } else {
        const end = angle + sweep;
        const large = sweep > Math.PI ? 1 : 0;
        const [x1, y1] = [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
        const [x2, y2] = [cx + radius * Math.cos(end), cy + radius * Math.sin(end)];
        doc.path(`M ${cx} ${cy} L ${x1} ${y1} A ${radius} ${radius} 0 ${large} 1 ${x2} ${y2} Z`).fill(colour);
        angle = end;
      }
    });
  });
  const legendX = cx + radius + 30;
  const legend = group(doc, parent, 'L');
  slices.forEach((slice, i) => {
    const y = top + i * 14;
    if (y + 14 > doc.page.height - doc.page.margins.bottom) return;
    artifact(doc, () => doc.rect(legendX, y + 1, 9, 9).fill(PALETTE[i % PALETTE.length]));
    const share = ((slice.value / total) * 100).toFixed(1);
    const item = group(doc, legend, 'LI');
    doc.fillColor('#000000').font(FONT).fontSize(8.5);
    tag(doc, item, 'LBody', () =>
      doc.text(`${slice.name}: ${formatAmount(slice.value)} (${share} %)`, legendX + 14, y + 1, {
        width: 400,
        lineBreak: false,
        ellipsis: true,
      }),
    );
    item.end();
  });
  legend.end();
  doc.x = MARGIN;
  doc.y = top + Math.max(2 * radius, slices.length * 14) + 10;
}

/** Renders the statement; resolves with the whole PDF file. */
export function renderStatementPdf(statement: Statement): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    // Tagged, with its language, and the title shown in the viewer's title bar instead of the file name.
    tagged: true,
    lang: 'en-US',
    displayTitle: true,
    pdfVersion: '1.7',
    info: {
      Title: `Elastic Licensing Summary Statement ${statement.Customer.AccountId}`,
      Author: 'Licensing portal',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const root = doc.struct('Document');
  doc.addStructure(root);

  const c = statement.Customer;
  doc.font(BOLD).fontSize(16);
  tag(doc, root, 'H1', () => doc.text('Elastic Licensing Summary Statement', MARGIN, MARGIN));
  doc.moveDown(0.4).font(FONT).fontSize(10);
  for (const line of [
    `Report Date: ${c.ReportDate}`,
    `Account: ${c.AccountId} (${c.AccountName})`,
    `Period Start Date: ${c.PeriodStart}    Period End Date: ${c.PeriodEnd}`,
  ])
    tag(doc, root, 'P', () => doc.text(line));

  heading(doc, root, 'Usage by Purchase Order');
  const poTable = group(doc, root, 'Table');
  tableRow(
    doc,
    poTable,
    poColumns,
    poColumns.map((col) => col.title),
    { header: true },
  );
  for (const r of statement.Records) {
    tableRow(doc, poTable, poColumns, [
      r.PONumber,
      r.ActivationId,
      r.StartDate,
      r.EndDate,
      formatAmount(r.BalanceBeforeStart),
      formatAmount(r.BalanceAtEnd),
      formatAmount(r.Used),
      r.Currency,
    ]);
    const products = displayProducts(r.Products);
    if (products.length === 0) continue;
    // The purchase order's products, drawn indented under its row: a table of their own in one row-wide cell.
    const row = group(doc, poTable, 'TR');
    const cell = group(doc, row, 'TD');
    spanColumns(cell, poColumns.length);
    const productTable = group(doc, cell, 'Table');
    for (const p of products) {
      tableRow(doc, productTable, productColumns, [p.product, formatAmount(p.total), p.currency], {
        x: MARGIN + 40,
      });
    }
    productTable.end();
    cell.end();
    row.end();
  }
  poTable.end();
  if (statement.Records.length === 0) {
    doc.font(FONT).fontSize(9);
    tag(doc, root, 'P', () => doc.text('No entitlements in this period.', MARGIN, doc.y + 4));
  }
  doc.moveDown(0.8);
  pieChart(
    doc,
    root,
    'Period Used by Purchase Order',
    pieSlices(
      statement.Records.map((r) => ({
        product: `${r.PONumber} ${r.ActivationId}`,
        total: r.Used,
        currency: '',
      })),
    ),
  );

  if (statement.Products.length > 0) {
    heading(doc, root, 'Usage by Product');
    const productTable = group(doc, root, 'Table');
    tableRow(
      doc,
      productTable,
      productColumns,
      productColumns.map((col) => col.title),
      { header: true },
    );
    for (const p of displayProducts(statement.Products)) {
      tableRow(doc, productTable, productColumns, [p.product, formatAmount(p.total), p.currency]);
    }
    productTable.end();
    doc.moveDown(0.8);
    pieChart(doc, root, 'Period Used by Product', pieSlices(statement.Products));
  }

  root.end();
  doc.end();
  return done;
}
