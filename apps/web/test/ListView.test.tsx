import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../src/i18n/index.ts';
import { ListView } from '../src/components/ListView.tsx';

interface User {
  id: number;
  name: string;
  extension: string | null;
}

const users: User[] = Array.from({ length: 45 }, (_, i) => ({
  id: i,
  name: `user${String(i).padStart(2, '0')}`,
  extension: i % 3 === 0 ? null : String(200 + (44 - i)),
}));

function renderList() {
  return render(
    <MantineProvider>
      <ListView
        items={users}
        getKey={(u) => String(u.id)}
        renderItem={(u) => <span>{u.name}</span>}
        searchText={(u) => `${u.name} ${u.extension ?? ''}`}
        filters={[
          { value: 'all', label: 'All', test: () => true },
          { value: 'configured', label: 'Configured', test: (u) => u.extension !== null },
        ]}
        sorts={[
          { value: 'name', label: 'Name', compare: (a, b) => a.name.localeCompare(b.name) },
          { value: 'number', label: 'Number', compare: (a, b) => Number(a.extension ?? 0) - Number(b.extension ?? 0) },
        ]}
      />
    </MantineProvider>,
  );
}

describe('ListView', () => {
  it('shows 20 rows, then 20 more each time, until all are shown', () => {
    renderList();
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.getByTestId('list-count').textContent).toBe('20 of 45');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(40);
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(45);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('searches case-insensitively and starts again from the first page', async () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'USER1' } });
    });
    const rows = screen.getAllByRole('listitem').map((r) => r.textContent);
    expect(rows).toEqual([
      'user10',
      'user11',
      'user12',
      'user13',
      'user14',
      'user15',
      'user16',
      'user17',
      'user18',
      'user19',
    ]);
  });

  it('says so when nothing matches', async () => {
    renderList();
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'nobody' } });
    });
    expect(screen.getByText('No results')).toBeTruthy();
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });
});
