/**
 * How the product shows numbers (spec 002 "amounts use 2 decimals and thousands separators. Counts in tables
 * use thousands separators"; decision 024). One formatter for grids, pages, PDF and e-mails, so '122,868.50'
 * never stands beside '98,690.52' written another way.
 */
const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** An amount (units, currency): always two decimals and thousands separators, e.g. '122,868.50'. */
export const formatAmount = (n: number) => amountFormat.format(n);

/** A count (licences, sessions): thousands separators, no padding decimals, e.g. '1,000'. */
export const formatCount = (n: number) => countFormat.format(n);
