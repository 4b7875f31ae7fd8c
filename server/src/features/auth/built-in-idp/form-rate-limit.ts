import type { AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { tooManyAttemptsMessage } from './pages.ts';

/** Route options of the provider's password forms (sign-in, set password): LOGIN_RATE_LIMIT_PER_MINUTE per address. */
export const formRateLimit = (ctx: AppContext) => ({
  config: {
    rateLimit: {
      max: ctx.config.LOGIN_RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      errorResponseBuilder: () => new AppError('RATE_LIMITED', tooManyAttemptsMessage),
    },
  },
});
