/**
 * Type-level tests of the loader's row type (`Loaded`, what
 * `load.<Resource>(ctx, rows, paths)` of `generated/relations.ts` returns;
 * docs/schema-language.md "Included paths and batch loading"): each path
 * adds its member, typed by the relation, and nothing else.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Loaded } from '../../runtime/results/index.js';

interface User {
  id: number;
  name: string;
}
interface Tag {
  id: number;
  name: string;
}
interface Article {
  id: number;
  author_id: number;
}
interface UserRelations {
  followers: { many: User; of: UserRelations };
  following: { value: boolean };
}
// biome-ignore lint/complexity/noBannedTypes: a resource without relations has an empty relation map.
type TagRelations = {};
interface ArticleRelations {
  author: { one: User; of: UserRelations };
  tags: { many: Tag; of: TagRelations };
  favorited: { value: boolean };
  favoritesCount: { value: number };
}

describe('Loaded', () => {
  it('adds one member per path: related rows or null, lists of rows, computed values, nested paths', () => {
    type Row = Loaded<Article, ArticleRelations, 'author' | 'author.following' | 'tags' | 'favoritesCount'>;
    expectTypeOf<Row['id']>().toEqualTypeOf<number>();
    expectTypeOf<Row['favoritesCount']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<Row['author']>['following']>().toEqualTypeOf<boolean>();
    expectTypeOf<NonNullable<Row['author']>['name']>().toEqualTypeOf<string>();
    expectTypeOf<Row['author']>().toEqualTypeOf<(User & { following: boolean }) | null>();
    expectTypeOf<Row['tags'][number]['name']>().toEqualTypeOf<string>();
  });

  it('adds nothing that was not asked for', () => {
    type Row = Loaded<Article, ArticleRelations, 'tags'>;
    expectTypeOf<keyof Row>().toEqualTypeOf<'id' | 'author_id' | 'tags'>();
    expectTypeOf<Loaded<Article, ArticleRelations, 'author'>['author']>().toEqualTypeOf<User | null>();
  });
});
