import {
  WEB_GROUP_MEMBERS_MAX,
  WEB_GROUP_NAME_MAX,
  WEB_INVITE_MAX,
  webDirectoryMessages,
  webGroupSources,
  webUserRoles,
  webUserSources,
  webUserStates,
} from '@lp/domain/web-directory';
import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * Web licensing's directory (issue 24, decision 071): the account's people and groups who hold web seats. E-mails
 * are checked and lower-cased by the server (domain/src/web-directory.ts), so a refusal names the address.
 */

const idField = z.uuid({ error: 'Must be an id of the directory.' });
const previewField = z.boolean().optional();
/** A CSV file's text: 1 MB bodies hold it (the server refuses larger bodies with 413). */
const CSV_MAX_CHARS = 1_000_000;

/** A named seat a person holds: directly (groupId null) or through a group given the pool. */
export const webUserSeatSchema = z.object({
  partNumber: z.string(),
  groupId: z.string().nullable(),
  groupName: z.string().nullable(),
});

export const webUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  source: z.enum(webUserSources),
  state: z.enum(webUserStates),
  role: z.enum(webUserRoles),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  seats: z.array(webUserSeatSchema),
  lastSeenAt: z.string().nullable(),
  openSessions: z.number().int(),
});
export type WebUser = z.infer<typeof webUserSchema>;

export const webGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(webGroupSources),
  memberIds: z.array(z.string()),
  members: z.number().int(),
  /** Named pools given to every member. */
  namedPools: z.array(z.string()),
  /** Terms on shared pools: seats kept free for the members and the most they may hold. */
  sharedTerms: z.array(
    z.object({ partNumber: z.string(), guaranteed: z.number().int(), cap: z.number().int().nullable() }),
  ),
});
export type WebGroup = z.infer<typeof webGroupSchema>;

/** POST /api/web/users */
export const listWebUsersRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  includeRemoved: z.boolean().optional(),
});
export const listWebUsersResponseSchema = successOf(z.array(webUserSchema));

/** What an invitation did (or, previewed, would do). */
export const inviteResultSchema = z.object({
  preview: z.boolean(),
  text: z.string(),
  invited: z.array(z.string()),
  restored: z.array(z.string()),
  unchanged: z.array(z.string()),
  groupsCreated: z.array(z.string()),
  membershipsAdded: z.number().int(),
});
export type InviteResult = z.infer<typeof inviteResultSchema>;

/** POST /api/web/users/invite */
export const inviteWebUsersRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  users: z
    .array(z.strictObject({ email: z.string().max(320), name: z.string().max(1000).optional() }))
    .min(1)
    .max(WEB_INVITE_MAX, webDirectoryMessages.tooMany),
  source: z.enum(['manual', 'csv']),
  preview: previewField,
});
export const inviteWebUsersResponseSchema = successOf(inviteResultSchema);

/** POST /api/web/users/import: a CSV file's text, header `email,name[,groups]`. */
export const importWebUsersCsvRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  csv: z
    .string()
    .max(CSV_MAX_CHARS, `A CSV file may be at most ${CSV_MAX_CHARS.toLocaleString('en-US')} characters.`),
  preview: previewField,
});
export const importWebUsersCsvResponseSchema = successOf(inviteResultSchema);

/** POST /api/web/users/update: the fields given change; state only between active and suspended. */
export const updateWebUserRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  userId: idField,
  name: z.string().trim().max(200).optional(),
  role: z.enum(webUserRoles).optional(),
  state: z.enum(['active', 'suspended']).optional(),
});
export const updateWebUserResponseSchema = successOf(webUserSchema);

/** What taking people out of the directory did (or would do). */
export const removalResultSchema = z.object({
  preview: z.boolean(),
  text: z.string(),
  users: z.number().int(),
  seatsFreed: z.number().int(),
  sessionsEnded: z.number().int(),
});

/** POST /api/web/users/remove */
export const removeWebUsersRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  userIds: z.array(idField).min(1).max(WEB_INVITE_MAX),
  preview: previewField,
});
export const removeWebUsersResponseSchema = successOf(removalResultSchema);

/** POST /api/web/groups */
export const listWebGroupsRequestSchema = z.strictObject({ customerNumber: customerNumberField });
export const listWebGroupsResponseSchema = successOf(z.array(webGroupSchema));

const groupNameField = z
  .string()
  .trim()
  .min(1, webDirectoryMessages.groupNameRequired)
  .max(WEB_GROUP_NAME_MAX, webDirectoryMessages.groupNameTooLong);

/** POST /api/web/groups/create */
export const createWebGroupRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  name: groupNameField,
});
export const webGroupResponseSchema = successOf(webGroupSchema);

/** POST /api/web/groups/rename */
export const renameWebGroupRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  groupId: idField,
  name: groupNameField,
});

/** What a change of a group did (or would do). */
export const groupChangeResultSchema = z.object({
  preview: z.boolean(),
  text: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
  seatsAdded: z.number().int(),
  seatsRemoved: z.number().int(),
});

/** POST /api/web/groups/delete */
export const deleteWebGroupRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  groupId: idField,
  preview: previewField,
});
export const groupChangeResponseSchema = successOf(groupChangeResultSchema);

/** POST /api/web/groups/members: the group's whole list of members. */
export const setWebGroupMembersRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  groupId: idField,
  userIds: z.array(idField).max(WEB_GROUP_MEMBERS_MAX),
  preview: previewField,
});
