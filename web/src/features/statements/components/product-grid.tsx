import type { StatementProduct } from '@lp/contract/statements/schemas';
import { formatAmount } from '@lp/domain/amounts';
import { useMediaQuery } from '@mantine/hooks';
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { gridTheme } from '../../../components/saved-view-grid/ag-grid-setup.ts';
import './statement-grid-modules.ts';

const PAGE_SIZE = 10;

const columnDefs: ColDef<StatementProduct>[] = [
  { colId: 'product', field: 'product', headerName: 'Product', flex: 2 },
  {
    colId: 'total',
    field: 'total',
    headerName: 'Period Used',
    type: 'rightAligned',
    valueFormatter: (p: ValueFormatterParams<StatementProduct, number>) =>
      p.value == null ? '' : formatAmount(p.value),
  },
  { colId: 'currency', field: 'currency', headerName: 'Currency' },
];

const defaultColDef: ColDef<StatementProduct> = { sortable: true, resizable: true, flex: 1, minWidth: 110 };

/**
 * "Usage by Product" (spec 001 §2.2): the period's totals per product, paginated on screen; a printed statement
 * has every row (issue 21), so printing lays the grid out whole without pages.
 */
export function ProductGrid({ products }: { products: StatementProduct[] }) {
  const printing = useMediaQuery('print') ?? false;
  const rows = Math.min(products.length, PAGE_SIZE);
  return (
    <section aria-label="Usage by Product table" style={{ height: printing ? 'auto' : 56 + 42 * rows + 52 }}>
      <AgGridReact<StatementProduct>
        theme={gridTheme}
        rowData={products}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        rowHeight={42}
        domLayout={printing ? 'print' : 'normal'}
        pagination={!printing}
        paginationPageSize={PAGE_SIZE}
        paginationPageSizeSelector={false}
      />
    </section>
  );
}
