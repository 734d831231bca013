import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';

/**
 * Test runs read and write memory as `test:<ownerId>`, a namespace no subscriber id can enter
 * (subscriber ids are UUIDs): `run:create` may play with test memory but must never read or change
 * a subscriber's, which takes `memory_record` permissions. Admin lists of real memory leave it out.
 */
export const TEST_OWNER_PREFIX = 'test:';

/** The `ownerId` a caller names a test owner by, without the prefix. */
export const testOwnerNameSchema = z.string().min(1).max(200);

/**
 * The memory owner of a caller's test runs: `test:` and the name given, by default the caller's
 * token subject, so each author has test memory of their own unless they name another.
 * @example testOwnerId('ada', principal) // 'test:ada'
 */
export function testOwnerId(name: string | undefined, principal: Principal | undefined): string {
  return `${TEST_OWNER_PREFIX}${name ?? principal?.sub ?? 'admin'}`;
}
