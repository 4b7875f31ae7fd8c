import { parseDay } from '@lp/domain/dates';
import { earliestStart, type FsaDuration, fsaDurationLabels } from '@lp/domain/fsa-pricing';
import { ActionIcon, Autocomplete, Button, Select, Table, Text, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useRef } from 'react';
import {
  formatTypedMoney,
  type LineView,
  type OrderContext,
  type OrderLinesState,
  type OrderView,
  productOptions,
  removeAllLines,
  removeLine,
  setCost,
  setCount,
  setDuration,
  setEndDate,
  setProduct,
  setStartDate,
  setUnitCost,
} from '../order-lines.ts';

/** Only 'yyyy-mm-dd' that is a real calendar day (spec 002 §5); anything else leaves the date unset. */
const strictDay = (input: string) => (parseDay(input.trim()) ? input.trim() : null);

interface Props {
  ctx: OrderContext;
  view: OrderView;
  update: (change: (state: OrderLinesState) => OrderLinesState) => void;
  disabled: boolean;
}

function DateCell({
  label,
  value,
  ctx,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  ctx: OrderContext;
  onChange: (day: string) => void;
  disabled: boolean;
}) {
  // What the user typed stays in the input and goes to the line even when it is no day or out of range, so the
  // line says 'Start date is invalid.' / 'End date is invalid.' (issue 21) instead of silently reverting. The picker
  // keeps the last real day meanwhile, which leaves the typed text in place.
  const lastDay = useRef<string | null>(null);
  if (parseDay(value)) lastDay.current = value;
  else if (value === '') lastDay.current = null;
  return (
    <DateInput
      aria-label={label}
      value={parseDay(value) ? value : lastDay.current}
      onChange={(day) => onChange(day ?? '')}
      onBlur={(e) => {
        const typed = e.currentTarget.value.trim();
        if (typed !== value && typed !== lastDay.current) onChange(typed);
      }}
      fixOnBlur={false}
      valueFormat="YYYY-MM-DD"
      dateParser={strictDay}
      minDate={earliestStart(ctx.contract, ctx.today)}
      maxDate={ctx.contract.endDate}
      placeholder="yyyy-mm-dd"
      disabled={disabled}
      w={125}
    />
  );
}

function LineRow({
  lv,
  index,
  ctx,
  update,
  disabled,
}: { lv: LineView; index: number } & Omit<Props, 'view'>) {
  const { line } = lv;
  const n = index + 1;
  const rowId = line.rowId;
  const products = productOptions(ctx);
  const editable = ctx.busops;
  const errorId = `${rowId}-error`;
  return (
    <>
      <Table.Tr data-testid={`order-line-${n}`} aria-describedby={lv.error ? errorId : undefined}>
        <Table.Td miw={200}>
          {line.manualEntry ? (
            <Autocomplete
              aria-label={`Product of line ${n}`}
              placeholder="Product name"
              data={products.map((p) => p.name)}
              value={line.product}
              onChange={(v) => update((s) => setProduct(s, ctx, rowId, v))}
              disabled={disabled}
            />
          ) : (
            <Select
              aria-label={`Product of line ${n}`}
              placeholder="Select a product"
              searchable
              data={products.map((p) => ({ value: p.partNumber, label: p.name }))}
              value={line.partNumber === '' ? null : line.partNumber}
              onChange={(v) => update((s) => setProduct(s, ctx, rowId, v ?? ''))}
              nothingFoundMessage="No product found"
              disabled={disabled}
            />
          )}
        </Table.Td>
        <Table.Td>
          <TextInput
            aria-label={`Count of line ${n}`}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={line.count}
            onChange={(e) => {
              const count = e.currentTarget.value;
              update((s) => setCount(s, rowId, count));
            }}
            disabled={disabled}
            w={80}
          />
        </Table.Td>
        <Table.Td>
          <DateCell
            label={`Start date of line ${n}`}
            value={line.startDate}
            ctx={ctx}
            onChange={(day) => update((s) => setStartDate(s, rowId, day))}
            disabled={disabled}
          />
        </Table.Td>
        <Table.Td>
          {line.manualEntry ? (
            <Text size="sm" c="dimmed">
              Manual
            </Text>
          ) : (
            <Select
              aria-label={`Duration of line ${n}`}
              placeholder="Duration"
              data={lv.offeredDurations.map((d) => ({ value: d, label: fsaDurationLabels[d] }))}
              value={line.duration === '' ? null : line.duration}
              onChange={(v) => update((s) => setDuration(s, rowId, (v ?? '') as FsaDuration | ''))}
              disabled={disabled || lv.offeredDurations.length === 0}
              w={120}
            />
          )}
        </Table.Td>
        <Table.Td>
          {line.manualEntry && editable ? (
            <DateCell
              label={`End date of line ${n}`}
              value={line.endDate}
              ctx={ctx}
              onChange={(day) => update((s) => setEndDate(s, ctx, rowId, day))}
              disabled={disabled}
            />
          ) : (
            <Text size="sm" data-testid={`end-date-${n}`}>
              {lv.endDate}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Text size="sm">{line.currency}</Text>
        </Table.Td>
        <Table.Td>
          {editable ? (
            <TextInput
              aria-label={`Unit cost of line ${n}`}
              inputMode="decimal"
              value={line.unitCost}
              placeholder={lv.unitCost}
              onChange={(e) => {
                const unitCost = e.currentTarget.value;
                update((s) => setUnitCost(s, ctx, rowId, unitCost));
              }}
              onBlur={() => {
                const shown = formatTypedMoney(line.unitCost);
                if (shown !== line.unitCost) update((s) => setUnitCost(s, ctx, rowId, shown));
              }}
              disabled={disabled}
              w={110}
            />
          ) : (
            <Text size="sm" ta="right" data-testid={`unit-cost-${n}`}>
              {lv.unitCost}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          {editable ? (
            <TextInput
              aria-label={`Cost of line ${n}`}
              inputMode="decimal"
              value={line.cost === '' ? lv.cost : line.cost}
              onChange={(e) => {
                const cost = e.currentTarget.value;
                update((s) => setCost(s, ctx, rowId, cost));
              }}
              onBlur={() => {
                const shown = formatTypedMoney(line.cost);
                if (shown !== line.cost) update((s) => setCost(s, ctx, rowId, shown));
              }}
              disabled={disabled}
              w={120}
            />
          ) : (
            <Text size="sm" ta="right" data-testid={`cost-${n}`}>
              {lv.cost}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove line ${n}`}
            onClick={() => update((s) => removeLine(s, rowId))}
            disabled={disabled}
          >
            ✕
          </ActionIcon>
        </Table.Td>
      </Table.Tr>
      {lv.error ? (
        <Table.Tr>
          <Table.Td colSpan={9} pt={0}>
            <Text id={errorId} size="sm" c="red" role="alert" data-testid={`line-error-${n}`}>
              {lv.error}
            </Text>
          </Table.Td>
        </Table.Tr>
      ) : null}
    </>
  );
}

/**
 * The editable order lines (spec 002 §2 "FSA order creation screen"): Product, Count, Start Date, Duration, End
 * Date, Currency, Unit Cost, Cost and Action with a Remove All header action. Business operations edit the end
 * date of manual lines, the unit cost and the cost; everyone else sees the priced amounts as text.
 */
export function OrderLinesTable({ ctx, view, update, disabled }: Props) {
  return (
    <Table.ScrollContainer minWidth={1000}>
      {/* Tighter cells than Mantine's default: with the menu open a 1366 px screen shows every column, Remove All
          included, without scrolling sideways (issue 21: it was cut at the right edge). */}
      <Table verticalSpacing="xs" horizontalSpacing={6} aria-label="Order lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th>Count</Table.Th>
            <Table.Th>Start Date</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>End Date</Table.Th>
            <Table.Th>Currency</Table.Th>
            <Table.Th>Unit Cost</Table.Th>
            <Table.Th>Cost</Table.Th>
            <Table.Th>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => update(removeAllLines)}
                disabled={disabled || view.lines.length === 0}
              >
                Remove All
              </Button>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.lines.map((lv, i) => (
            <LineRow key={lv.line.rowId} lv={lv} index={i} ctx={ctx} update={update} disabled={disabled} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
