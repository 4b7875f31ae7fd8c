import { CheckIcon, Combobox, Group, InputBase, ScrollArea, useCombobox } from '@mantine/core';

export const SELECT_ALL = 'Select All';

export interface ProductSelectProps {
  /** Every product of the table's rows, in the order to offer them. */
  products: string[];
  /** Products whose rows are not listed (so a product new after a refresh is listed). */
  hidden: ReadonlySet<string>;
  onHiddenChange: (next: Set<string>) => void;
}

/**
 * The available table's product multi-select (spec 002 §2): a checked product's rows are listed; 'Select All'
 * checks every product, or unchecks every one when all are checked. It only narrows the list: a row that is not
 * listed keeps what was chosen for it.
 */
export function EntitlementProductSelect({ products, hidden, onHiddenChange }: ProductSelectProps) {
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
  });
  const listed = products.filter((p) => !hidden.has(p));
  const allListed = listed.length === products.length;
  const summary =
    products.length === 0
      ? 'No products'
      : allListed
        ? 'All products'
        : listed.length === 0
          ? 'No products selected'
          : `${listed.length} of ${products.length} products`;

  const toggle = (value: string) => {
    if (value === SELECT_ALL) {
      onHiddenChange(allListed ? new Set(products) : new Set());
      return;
    }
    const next = new Set(hidden);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    onHiddenChange(next);
  };

  const option = (value: string, checked: boolean) => (
    <Combobox.Option value={value} key={value} aria-selected={checked}>
      <Group gap="xs" wrap="nowrap">
        <span style={{ width: 12, display: 'inline-flex' }} aria-hidden="true">
          {checked ? <CheckIcon size={12} /> : null}
        </span>
        <span>{value}</span>
      </Group>
    </Combobox.Option>
  );

  return (
    <Combobox store={combobox} onOptionSubmit={toggle} withinPortal>
      <Combobox.Target targetType="button">
        <InputBase
          component="button"
          type="button"
          pointer
          size="xs"
          w={260}
          label="Products"
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onClick={() => combobox.toggleDropdown()}
          disabled={products.length === 0}
        >
          {summary}
        </InputBase>
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options aria-label="Products" aria-multiselectable>
          <ScrollArea.Autosize mah={300} type="scroll">
            {option(SELECT_ALL, allListed && products.length > 0)}
            {products.map((p) => option(p, !hidden.has(p)))}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
