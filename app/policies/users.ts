/**
 * The TypeScript part of the policy `users` (schema/accounts.yaml;
 * docs/authorization.md "Writing a policy in TypeScript"): who sees a
 * user's page — their own, or anyone's for an admin. The YAML marks the
 * action `{ code: true, scope: true }`, so it gives both the check of one
 * row and the condition for lists of users (the owner of a listed document).
 */
import { definePolicy } from 'bindery/authorization';

export const usersPolicy = definePolicy('users', {
  view: {
    check: (user, target) => user.admin || user.id === target.id,
    scope: (user, eb) => user.admin || eb('users.id', '=', user.id),
  },
});
