import type { Accounts, AuthenticatedKey } from '../accounts/index.js';
import { presentAccount } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { ReplyOf } from '../contract/index.js';

/**
 * The account and tier of the key in use, as `/account` and the get_account_info tool answer
 * it: the key's record (its masked id, never the secret), tier limits and features.
 */
export function accountInfo(accounts: Accounts, auth: AuthenticatedKey, now: number): ReplyOf<'/api/v1/account'> {
  const key = accounts.keys.key(auth.keyId);
  if (!key || key.accountId !== auth.accountId) throw new ApiError('not_found', `No key '${auth.keyId}' in this account`);
  return {
    success: true,
    data: presentAccount(auth, key, accounts.keys.account(auth.accountId), now),
  };
}

/**
 * Sets (a rate in percent) or clears (null) the account's own exchange commission rate, then
 * answers as `/account` does, the new rate in it.
 */
export async function setAccountCommission(
  accounts: Accounts,
  auth: AuthenticatedKey,
  rate: number | null,
  now: number,
): Promise<ReplyOf<'/api/v1/account'>> {
  await accounts.serially(auth.accountId, () => accounts.setExchangeCommission(auth.accountId, rate));
  return accountInfo(accounts, auth, now);
}
