import {
  CellStyleModule,
  ColumnApiModule,
  createPart,
  DateFilterModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  PaginationModule,
  provideGlobalGridOptions,
  TextFilterModule,
  themeQuartz,
} from 'ag-grid-community';

// Only the modules the tables use: this file loads with the first page that shows a table. CellStyle gives
// `type: 'rightAligned'` its cell class (without it AG Grid logs error #200 and numbers stay left-aligned).
ModuleRegistry.registerModules([
  CellStyleModule,
  InfiniteRowModelModule,
  TextFilterModule,
  NumberFilterModule,
  DateFilterModule,
  ColumnApiModule,
  PaginationModule,
]);

/** The width of the grid's own vertical scrollbar where the browser's take no room (AG Grid draws 16 px). */
const OVERLAY_SCROLLBAR_WIDTH = 16;

/** The browser's scrollbar width: 0 where scrollbars overlay the content (or are hidden). */
function browserScrollbarWidth(): number | null {
  if (typeof document === 'undefined' || !document.body) return null;
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;top:-9999px;width:100px;height:100px;overflow:scroll';
  document.body.appendChild(probe);
  const width = probe.offsetWidth - probe.clientWidth;
  probe.remove();
  return width;
}

// Where the browser's scrollbars take no room, AG Grid lays its columns out under its own 16 px vertical bar,
// which then covers the last column's text ("50" read "5" on /ssl, issue 21): the columns leave room for it.
if (browserScrollbarWidth() === 0) provideGlobalGridOptions({ scrollbarWidth: OVERLAY_SCROLLBAR_WIDTH });

/**
 * Multi-word headers wrap (wrapHeaderText) between words only: AG Grid's own `overflow-wrap: break-word`
 * split 'Expiration' into 'Expirati / on' when the column was narrow. A word wider than its column now shows
 * as clipped, which the layout test catches (each column's minimum width fits its longest header word).
 */
const headerWordWrap = createPart({
  feature: 'headerWordWrap',
  css: '.ag-header-cell-text { overflow-wrap: normal; word-break: normal; }',
});

/** One grid look for the whole product, close to Mantine's defaults. */
export const gridTheme = themeQuartz.withPart(headerWordWrap).withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: 'var(--mantine-color-blue-6)',
  // Tighter cells than Quartz's default, so a 1366 px screen shows a table's key columns unclipped.
  cellHorizontalPaddingScale: 0.5,
  fontSize: 13,
  headerFontSize: 13,
});
