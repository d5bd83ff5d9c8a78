import { configure } from "@testing-library/dom";

// waitFor and findBy* wait for a condition, by default for at most 1 s. A screen whose code comes by import()
// (the forms taken over on first use) compiles that module on its first import: alone that is ~0.2 s, on CI's
// two cores shared with the server suites and the type checks it passed 1 s. The bound is for a hang, not a
// speed check.
configure({ asyncUtilTimeout: 10_000 });
