import {
  CellStyleModule,
  ColumnApiModule,
  DateFilterModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  PaginationModule,
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

/** One grid look for the whole product, close to Mantine's defaults. */
export const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: 'var(--mantine-color-blue-6)',
  // Tighter cells than Quartz's default, so a 1366 px screen shows a table's key columns unclipped.
  cellHorizontalPaddingScale: 0.5,
  fontSize: 13,
  headerFontSize: 13,
});
