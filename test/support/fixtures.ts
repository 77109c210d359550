/** The transcript fixtures live in testkit/ (shared with bench/ and eval/); kept here for the tests that import them from this path. */
export * from '../../testkit/fixtures.ts';
