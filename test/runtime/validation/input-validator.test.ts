import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { compileInputValidator } from '../../../runtime/validation/input-validator.js';
import { ValidationError } from '../../../runtime/errors/validation-error.js';
import type { CompiledValidator } from '../../../runtime/routing/route-table.js';
import { field, route } from '../http/support/routes.js';

const jsonRequest = { body: {}, headers: { 'content-type': 'application/json' } } as unknown as FastifyRequest;
const formRequest = { body: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' } } as unknown as FastifyRequest;

function failures(
  validate: (input: Record<string, unknown>, request: FastifyRequest) => void,
  input: Record<string, unknown>,
  request = jsonRequest,
): Record<string, string> | null {
  try {
    validate(input, request);
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return { ...(err as ValidationError).fieldErrors };
  }
}

describe('compileInputValidator | ajv errors to the first failing rule of each field', () => {
  const signup = route({
    name: 'signup',
    method: 'POST',
    path: '/signup',
    fields: [
      field('email', 'string', { json: 'email' }, ['required', 'email', 'max:20']),
      field('nick_name', 'string', { json: 'nickName', form: 'nick_name' }, ['min:3', 'alpha_num']),
      field('tags', 'string[]', { json: 'tags' }, ['each:alpha', 'max:2']),
      field('password', 'string', { json: 'password' }, ['required', 'min:8', 'confirmed']),
      field('password_confirmation', 'string', { json: 'password_confirmation' }),
      field('age', 'integer', { query: 'age' }, ['between:18,99']),
    ],
  });
  const validate = compileInputValidator(signup)!;

  it('passes valid input', () => {
    expect(
      failures(validate, {
        email: 'a@b.co',
        nick_name: 'bob',
        tags: ['x'],
        password: 'longenough',
        password_confirmation: 'longenough',
        age: 30,
      }),
    ).toBeNull();
  });

  it('reports only the lowest failing rule per field, in field order, by client names', () => {
    const errors = failures(validate, {
      email: 'not-an-email-and-far-too-long',
      nick_name: '!',
      tags: ['ok', 'n0', 'x1', 'y'],
      password: 'short',
      password_confirmation: 'other',
      age: 5,
    });
    expect(errors).toEqual({
      email: 'The email field must be a valid email address.',
      nick_name: 'The nickName field must be at least 3 characters.',
      tags: 'The tags.1 field must only contain letters.',
      password: 'The password field must be at least 8 characters.',
      age: 'The age field must be between 18 and 99.',
    });
    expect(Object.keys(errors!)).toEqual(['email', 'nick_name', 'tags', 'password', 'age']);
  });

  it('words messages with the form names for a form body', () => {
    expect(
      failures(validate, { email: 'a@b.co', nick_name: 'x', password: 'longenough', password_confirmation: 'longenough' }, formRequest),
    ).toEqual({ nick_name: 'The nick name field must be at least 3 characters.' });
  });

  it('maps missing required fields through params.missingProperty', () => {
    expect(failures(validate, {})).toEqual({ email: 'The email field is required.', password: 'The password field is required.' });
    expect(failures(validate, { email: '   ', password: 'longenough', password_confirmation: 'longenough' })).toEqual({
      email: 'The email field is required.',
    });
  });

  it('runs cross-field rules after ajv, only when no earlier rule failed', () => {
    expect(failures(validate, { email: 'a@b.co', password: 'longenough', password_confirmation: 'different' })).toEqual({
      password: 'The password field confirmation does not match.',
    });
  });

  it('is null for a route without rules', () => {
    expect(compileInputValidator(route({ name: 'plain', path: '/plain', fields: [field('q', 'string', { query: 'q' })] }))).toBeNull();
  });

  it('a cross-field rule before a failing ajv rule wins', () => {
    const r = route({
      name: 'x',
      method: 'POST',
      path: '/x',
      fields: [
        field('pin', 'string', { json: 'pin' }, ['confirmed', 'min:4']),
        field('pin_confirmation', 'string', { json: 'pin_confirmation' }),
      ],
    });
    expect(failures(compileInputValidator(r)!, { pin: '12', pin_confirmation: '99' })).toEqual({
      pin: 'The pin field confirmation does not match.',
    });
  });

  it('a false ajv result without a known field is still a 422', () => {
    const validator = Object.assign(() => false, {
      errors: [{ instancePath: '', schemaPath: '#/type', keyword: 'type', params: {} }],
    }) as unknown as CompiledValidator;
    const r = {
      ...route({ name: 'y', method: 'POST', path: '/y', fields: [field('a', 'string', { json: 'a' }, ['max:1'])] }),
      validate: validator,
    };
    expect(failures(compileInputValidator(r)!, { a: 'x' })).toEqual({});
  });
});
