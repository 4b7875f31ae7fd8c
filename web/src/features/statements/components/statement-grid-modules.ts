import { ClientSideRowModelModule, ModuleRegistry, PaginationModule } from 'ag-grid-community';

// The statement's grids hold the whole statement in the browser (client-side rows), one of them paginated.
ModuleRegistry.registerModules([ClientSideRowModelModule, PaginationModule]);
