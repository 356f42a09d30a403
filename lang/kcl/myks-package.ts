/**
 * Built-in KCL packages, found by `import NAME` when no directory of the module
 * answers: the `myks` package a converted tree imports (docs/kcl.md, "The myks
 * package"). Written from the converter's specification: applications are
 * myks.App instances keyed by name in a myks.Apps accumulator; with_apps folds
 * a level's accumulator into the level's data (an application declared above
 * is unioned with what this level says about it); finalize regenerates
 * environment.applications on a leaf; app_values gives one application's
 * data values as the engine reads them (the level's scopes, the application's
 * own scopes and `application` unioned over them).
 */

const MYKS = `"""myks: the schema package of a KCL configuration tree."""

schema App:
    """One application. The engine scopes are declared here, so every
    application may set them whatever its prototype schema says."""
    proto?: str
    application?: any
    argocd?: {str:any}
    helm?: {str:any}
    kbld?: {str:any}
    render?: {str:any}
    yttPkg?: {str:any}

schema Apps:
    """The applications a level declares or overrides, by name."""
    [name: str]: App

with_apps = lambda level: {str:any}, apps: {str:any} -> {str:any} {
    _parent = level.applications if level.applications else {}
    _names = [n for n in _parent] + [n for n in apps if n not in _parent]
    level | {
        applications = {n: (_parent[n] | apps[n] if n in apps else _parent[n]) if n in _parent else apps[n] for n in _names}
    }
}

finalize = lambda level: {str:any} -> {str:any} {
    _apps = level.applications if level.applications else {}
    level | {
        environment.applications = [{proto = app.proto, name = name} for name, app in _apps]
    }
}

app_values = lambda level: {str:any}, name: str -> {str:any} {
    _app = level.applications[name]
    _env = {k: v for k, v in level if k != "applications"}
    _env | {k: v for k, v in _app if k != "proto" and v != None}
}
`;

/** Package name → its files (name, text), in the order kcl reads them. */
export const BUILTIN_PACKAGES: ReadonlyMap<string, readonly (readonly [string, string])[]> = new Map([
  ['myks', [['myks.k', MYKS]] as const],
]);
