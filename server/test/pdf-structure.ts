/*
 * Reads what a screen reader relies on in a PDF pdfkit wrote: the catalog's entries and the structure tree. pdfkit
 * writes every object but the page contents uncompressed and without object streams, so the objects are read from
 * the file's text as they are (a test helper, not a PDF parser).
 */

/** The dictionary text of object `id` ("12 0 obj << … >> endobj"). */
export function pdfObject(pdf: Buffer, id: number): string {
  const text = pdf.toString('latin1');
  const match = new RegExp(`(?:^|\\n)${id} 0 obj\\s*([\\s\\S]*?)\\nendobj`).exec(text);
  if (!match) throw new Error(`no object ${id} in the PDF`);
  return match[1] ?? '';
}

/** The number of the object an entry of `dictionary` refers to ("/MarkInfo 5 0 R" → 5). */
export function refOf(dictionary: string, key: string): number {
  const match = new RegExp(`/${key} (\\d+) 0 R`).exec(dictionary);
  if (!match) throw new Error(`no reference /${key} in ${dictionary}`);
  return Number(match[1]);
}

/** The document catalog's dictionary. */
export function pdfCatalog(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const match = /(?:^|\n)(\d+) 0 obj\s*<<\s*\/Type \/Catalog/.exec(text);
  if (!match) throw new Error('no catalog in the PDF');
  return pdfObject(pdf, Number(match[1]));
}

export interface StructNode {
  role: string;
  /** The element's attributes as written (`/A << … >>`), '' without. */
  attributes: string;
  /** Marked-content ids on its page: the drawn content the element stands for. */
  content: number[];
  children: StructNode[];
}

function structNode(pdf: Buffer, id: number): StructNode {
  const dictionary = pdfObject(pdf, id);
  const role = /\/S \/(\w+)/.exec(dictionary)?.[1] ?? '';
  const attributes = /\/A (<<[\s\S]*?>>)/.exec(dictionary)?.[1] ?? '';
  const kids = /\/K \[([^\]]*)\]/.exec(dictionary)?.[1] ?? '';
  const children: StructNode[] = [];
  const content: number[] = [];
  // Kids are references to elements ("14 0 R"), marked-content ids ("3") or MCR dictionaries (content on another
  // page: "<< /Type /MCR /Pg 8 0 R /MCID 3 >>", read as its id).
  const flat = kids.replace(/<<[^>]*?\/MCID (\d+)[^>]*?>>/g, ' $1 ');
  for (const kid of flat.matchAll(/(\d+) 0 R|(\d+)/g)) {
    if (kid[1]) children.push(structNode(pdf, Number(kid[1])));
    else content.push(Number(kid[2]));
  }
  return { role, attributes, content, children };
}

/** The structure tree from the catalog's StructTreeRoot, in reading order. */
export function structTree(pdf: Buffer): StructNode[] {
  const root = pdfObject(pdf, refOf(pdfCatalog(pdf), 'StructTreeRoot'));
  const kids = /\/K \[([^\]]*)\]/.exec(root)?.[1] ?? '';
  return [...kids.matchAll(/(\d+) 0 R/g)].map((m) => structNode(pdf, Number(m[1])));
}

/** The roles of `nodes` as a compact outline: "Table(TR(TH,TH),TR(TD,TD))". */
export const outline = (nodes: StructNode[]): string =>
  nodes.map((n) => (n.children.length ? `${n.role}(${outline(n.children)})` : n.role)).join(',');
