import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { auditActor, automatedActor } from '../audit/service.ts';
import {
  createWebGroupIn,
  createWebUserIn,
  type DirectoryActor,
  importWebUsersCsv,
  removeWebUsersIn,
  updateWebUserIn,
  webGroupsOf,
  webUsersOf,
} from '../web-directory/service.ts';
import {
  assignWebSeats,
  saveWebGroupTerms,
  saveWebPoolPolicy,
  setWebGroupPools,
  webPoolOf,
} from '../web-seats/service.ts';
import { issueWebCredential } from '../web-sessions/service.ts';
import { simulateWebSessions, type WebSimulationResult } from './web-simulator.ts';
import type { DemoUser } from './world/types.ts';

/**
 * The demo world's web licensing (issue 24 §2): the directory, groups, seats and terms of the account with web
 * pools (world/web-pools.ts gives it its lines), written through web-directory's and web-seats' commands as its
 * administrator would, then a month of sessions from the simulator, so every Web screen has data and the seat
 * rules hold. Deterministic for a seed, anchor day and end instant.
 */

export const WEB_DEMO_PRODUCT = 'Acme Simulation Cloud';
export const WEB_HISTORY_DAYS = 30;

/** [local part, name] of the people each way they came into the directory. */
const manual: [string, string][] = [
  ['k.schmidt', 'Katrin Schmidt'],
  ['t.becker', 'Tobias Becker'],
  ['s.wagner', 'Sabine Wagner'],
  ['f.hoffmann', 'Felix Hoffmann'],
  ['a.koch', 'Anna Koch'],
  ['j.richter', 'Jonas Richter'],
];
const contractors: [string, string][] = [
  ['ext.novak', 'Pavel Novák'],
  ['ext.rossi', 'Giulia Rossi'],
  ['ext.dubois', 'Luc Dubois'],
  ['ext.larsen', 'Freja Larsen'],
  ['ext.silva', 'Tiago Silva'],
  ['ext.oconnor', 'Aoife O’Connor'],
  ['ext.kowalski', 'Marta Kowalski'],
  ['ext.haddad', 'Karim Haddad'],
];
const signIn: [string, string][] = [
  ['l.klein', 'Lena Klein'],
  ['m.wolf', 'Maximilian Wolf'],
  ['p.schroeder', 'Paula Schröder'],
];
const scim: [string, string][] = [
  ['c.neumann', 'Clara Neumann'],
  ['d.schwarz', 'David Schwarz'],
  ['e.zimmermann', 'Emma Zimmermann'],
  ['h.braun', 'Hannah Braun'],
  ['l.krueger', 'Leon Krüger'],
  ['m.hofmann', 'Mia Hofmann'],
  ['n.hartmann', 'Noah Hartmann'],
  ['s.lange', 'Sophie Lange'],
];
/** The CSV file the administrator imported (invited; they become active when they first sign in). */
const csv = `email,name,groups
r.schmitt@acme.example,Robert Schmitt,Electronics
i.werner@acme.example,Ida Werner,Electronics
b.krause@acme.example,Ben Krause,Electronics
v.meier@acme.example,Vera Meier,Electronics
u.lehmann@acme.example,Uwe Lehmann,Electronics;Structures
g.schmid@acme.example,Greta Schmid,Structures
o.schulze@acme.example,Oskar Schulze,Structures
y.maier@acme.example,Yvonne Maier,Structures
w.koehler@acme.example,Walter Köhler,Structures
z.herrmann@acme.example,Zoe Herrmann,
q.koenig@acme.example,Quirin König,
x.walter@acme.example,Xaver Walter,`;

const mail = (local: string) => `${local}@acme.example`;

export interface WebDemoSummary {
  customerNumber: string;
  people: number;
  simulation: WebSimulationResult;
}

/**
 * Seeds the web directory and history of the demo account, in the caller's transaction. `admin` is the account's
 * administrator in the demo world (the portal changes are theirs in the audit log); `until` ends the history.
 */
export async function seedWebDemo(
  db: Db,
  opts: { customerNumber: string; admin: DemoUser; seed: number; until: Date },
): Promise<WebDemoSummary> {
  const { customerNumber: cn, admin } = opts;
  // The commands read only the database of their context.
  const ctx = { db } as AppContext;
  const principal: Principal = {
    userId: admin.id,
    email: admin.email,
    name: admin.name,
    vendorRoles: [],
    via: 'session',
  };
  const portal: DirectoryActor = { actor: auditActor(principal), source: 'manual' };
  const idp: DirectoryActor = { actor: automatedActor, source: 'scim' };
  const signedIn: DirectoryActor = { actor: automatedActor, source: 'sign-in' };

  const id = new Map<string, string>();
  const add = async (by: DirectoryActor, people: [string, string][], role?: 'administrator') => {
    for (const [local, name] of people) {
      const person = await createWebUserIn(db, cn, by, {
        email: mail(local),
        name,
        state: 'active',
        role,
        externalId: by.source === 'scim' ? `entra-${local}` : null,
      });
      id.set(local, person.id);
    }
  };
  await add(portal, [[admin.email.split('@')[0], admin.name]], 'administrator');
  await add(signedIn, [['m.weber', 'Martin Weber']], 'administrator');
  await add(portal, [...manual, ...contractors]);
  await add(signedIn, signIn);
  await add(idp, scim);
  await importWebUsersCsv(ctx, principal, { customerNumber: cn, csv });
  for (const person of await webUsersOf(db, cn)) id.set(person.email.split('@')[0], person.id);
  const ids = (people: [string, string][]) => people.map(([local]) => id.get(local)!);

  await createWebGroupIn(db, cn, idp, {
    name: 'Fluids Team',
    externalId: 'entra-grp-fluids',
    memberIds: ids(scim),
  });
  await createWebGroupIn(db, cn, portal, { name: 'Contractors', memberIds: ids(contractors) });
  // One person left the company (removed), one is on leave (suspended).
  await removeWebUsersIn(db, cn, portal, [id.get('x.walter')!]);
  await updateWebUserIn(db, cn, portal, id.get('j.richter')!, { state: 'suspended' });

  const groups = new Map((await webGroupsOf(db, cn)).map((g) => [g.name, g.id]));
  const [electronics, fluids, structures] = ['ELC0030140', 'CFD0010140', 'STR0020140'];
  // Named seats: Electronics' members through the group, three more people directly; Structures (when the
  // account's Structures lines are live) through its group.
  await setWebGroupPools(ctx, principal, {
    customerNumber: cn,
    groupId: groups.get('Electronics')!,
    partNumbers: [electronics],
  });
  await assignWebSeats(ctx, principal, {
    customerNumber: cn,
    partNumber: electronics,
    userIds: [id.get(admin.email.split('@')[0])!, id.get('k.schmidt')!, id.get('t.becker')!],
  });
  if (await webPoolOf(db, cn, structures))
    await setWebGroupPools(ctx, principal, {
      customerNumber: cn,
      groupId: groups.get('Structures')!,
      partNumbers: [structures],
    });
  // The shared pool keeps two seats for the Fluids Team (at most three); contractors hold one at a time.
  await saveWebGroupTerms(ctx, principal, {
    customerNumber: cn,
    partNumber: fluids,
    terms: [
      { groupId: groups.get('Fluids Team')!, guaranteed: 2, cap: 3 },
      { groupId: groups.get('Contractors')!, guaranteed: 0, cap: 1 },
    ],
  });
  // The products heartbeat lazily (every 59 minutes, within an hour's window): a month of history stays a few
  // thousand calls, seconds of the first start.
  for (const partNumber of [electronics, fluids, structures])
    if (await webPoolOf(db, cn, partNumber))
      await saveWebPoolPolicy(ctx, principal, {
        customerNumber: cn,
        partNumber,
        policy: { heartbeatWindowSeconds: 3600, idleTimeoutSeconds: 3600, sessionsPerUser: 1 },
      });

  await issueWebCredential(db, {
    product: WEB_DEMO_PRODUCT,
    partNumbers: [electronics, fluids, structures, 'PLT0050120'],
    createdBy: 'demo seed',
  });
  const simulation = await simulateWebSessions(db, {
    customerNumber: cn,
    days: WEB_HISTORY_DAYS,
    until: opts.until,
    seed: opts.seed,
    heartbeatSeconds: 3540,
    attendance: 0.12,
    openAtEnd: 3,
  });
  return { customerNumber: cn, people: id.size, simulation };
}
