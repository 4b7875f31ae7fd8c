import type { Alert } from '@lp/contract/alerts/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderScreen, serveApi } from '../../../../test/render.tsx';
import { AlertsBanner } from './alerts-banner.tsx';

/*
 * The shell's alerts banner (spec 000 §2.5, §4.3) for each state of the active list; the browser test
 * (e2e/tests/alerts.spec.ts) keeps the journey from a created alert to the banner and its See All link.
 */

const alert = (a: Partial<Alert> & Pick<Alert, 'id' | 'category' | 'service' | 'description'>): Alert => ({
  status: 'ACTIVE',
  date: '2026-01-01T08:05:00Z',
  expires: null,
  links: {},
  ...a,
});

const outage = alert({
  id: 1,
  category: 'CRITICAL',
  service: ['E2E Portal'],
  description: 'Sign-in outage',
  expires: '2099-01-01T18:00:00Z',
});
const degradation = alert({
  id: 2,
  category: 'WARNING',
  service: ['E2E Downloads'],
  description: 'Slow downloads',
  date: '2026-01-02T09:00:00Z',
});
const upgrade = alert({
  id: 3,
  category: 'INFO',
  service: ['E2E Licensing', 'E2E Portal'],
  description: 'Upgrade',
});

const banner = () => screen.queryByTestId('alerts-banner');

describe('alerts banner', () => {
  it('shows nothing without active alerts', async () => {
    const calls = serveApi({ 'GET /api/notifications': [] });
    renderScreen(<AlertsBanner />);
    await expect.poll(() => calls).toContain('GET /api/notifications');
    expect(banner()).toBeNull();
  });

  it('shows one alert with its category, services, times and a link to the alerts, and closes', async () => {
    serveApi({ 'GET /api/notifications': [outage] });
    renderScreen(<AlertsBanner />);
    const shown = await screen.findByTestId('alerts-banner');
    expect(shown).toHaveAttribute('data-category', 'CRITICAL');
    expect(shown).toHaveTextContent('Outage');
    expect(shown).toHaveTextContent('E2E Portal: Sign-in outage from 2026-01-01 8:05 to 2099-01-01 18:00.');
    expect(screen.getByRole('link', { name: 'View alerts' })).toHaveAttribute('href', '/notifications');
    await userEvent.click(screen.getByRole('button', { name: 'Close alerts banner' }));
    expect(banner()).toBeNull();
  });

  it('names a degradation with its start and no end', async () => {
    serveApi({ 'GET /api/notifications': [degradation] });
    renderScreen(<AlertsBanner />);
    const shown = await screen.findByTestId('alerts-banner');
    expect(shown).toHaveTextContent('Service degradation');
    expect(shown).toHaveTextContent('E2E Downloads: Slow downloads from 2026-01-02 9:00.');
  });

  it('sums up several alerts with their services in the order of the list, and links to all of them', async () => {
    serveApi({ 'GET /api/notifications': [degradation, upgrade] });
    renderScreen(<AlertsBanner />);
    const shown = await screen.findByTestId('alerts-banner');
    expect(shown).toHaveAttribute('data-category', 'MULTIPLE');
    expect(shown).toHaveTextContent('Multiple alerts');
    expect(shown).toHaveTextContent('Multiple items affecting E2E Downloads, E2E Licensing and E2E Portal.');
    expect(screen.getByRole('link', { name: 'See All' })).toHaveAttribute('href', '/notifications');
  });
});
