import type { Operation } from '../common/operation.ts';

export const elasticServerApi: Operation[] = [];
