import {
  ColumnApiModule,
  DateFilterModule,
  InfiniteRowModelModule,
  ModuleRegistry,
  NumberFilterModule,
  TextFilterModule,
  themeQuartz,
} from 'ag-grid-community';

// Only the modules the saved-view tables use: this file loads with the first page that shows a table.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  TextFilterModule,
  NumberFilterModule,
  DateFilterModule,
  ColumnApiModule,
]);

/** One grid look for the whole product, close to Mantine's defaults. */
export const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: 'var(--mantine-color-blue-6)',
});
