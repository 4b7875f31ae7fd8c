import type { ClientConfig } from '@lp/contract/platform/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { createContext, useContext } from 'react';

export type Environment = 'dev' | 'uat' | 'prod';

export interface AppConfig extends ClientConfig {
  environment: Environment;
}

export const ConfigContext = createContext<AppConfig | null>(null);
export const UserContext = createContext<CurrentUser | null>(null);

export function useConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig outside ConfigGate');
  return config;
}

export function useCurrentUser(): CurrentUser {
  const user = useContext(UserContext);
  if (!user) throw new Error('useCurrentUser outside the guarded shell');
  return user;
}
