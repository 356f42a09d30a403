/**
 * Our kubecfg.libsonnet: the same API as kubecfg's library (native wrappers,
 * toOverlay, isK8sObject, deepMap, fold, getPath, objectHasPath(All),
 * layouts.gvkName/gvkNsName, parseHelmChart, validateJSONSchema,
 * resolveImage), written for this project. The wrappers only name natives;
 * a native the engine does not have fails when called, not when imported.
 * Only std functions present in Jsonnet 0.18 are used.
 */

export const kubecfgLibsonnet = `// kubecfg.libsonnet: helpers and native functions for kubecfg programs.
{
  // Native functions (see kubecfg's documentation for each).
  parseJson:: std.native('parseJson'),  // JSON text -> value
  parseYaml:: std.native('parseYaml'),  // YAML stream -> array of documents
  manifestYaml:: std.native('manifestYaml'),  // value -> YAML document text
  escapeStringRegex:: std.native('escapeStringRegex'),
  regexMatch:: std.native('regexMatch'),  // Go RE2 syntax
  regexSubst:: std.native('regexSubst'),  // Go RE2 syntax, $1 / \${name} in the replacement
  resolveImage:: std.native('resolveImage'),
  validateJSONSchema:: std.native('validateJSONSchema'),

  // value -> pretty JSON text, indent spaces per level.
  manifestJson(value, indent=4):: std.native('manifestJson')(value, indent),

  // Renders a vendored Helm chart (.tgz bytes from importbin) into a map of template path -> objects.
  parseHelmChart(chartData, releaseName, namespace, values, capabilities={})::
    std.native('parseHelmChart')(chartData, releaseName, namespace, values, capabilities),

  // {a: {b: 1}} -> {a+: {b: 1}}: nested objects extend instead of replace when added.
  toOverlay(v)::
    if std.isObject(v) then
      local overlaid = [k for k in std.objectFields(v) if std.isObject(v[k])];
      local replaced = [k for k in std.objectFields(v) if !std.isObject(v[k])];
      { [k]+: $.toOverlay(v[k]) for k in overlaid } + { [k]: v[k] for k in replaced }
    else v,

  // True for an object with visible apiVersion and kind fields.
  isK8sObject(o):: std.isObject(o) && std.objectHas(o, 'apiVersion') && std.objectHas(o, 'kind'),

  local isList(o) = $.isK8sObject(o) && o.apiVersion == 'v1' && o.kind == 'List',
  local notACollection(o) = error ('o must be an object or array of k8s objects, found ' + std.type(o)),

  // Applies func to every Kubernetes object in o, keeping o's shape (List items are mapped in place).
  deepMap(func, o)::
    if isList(o) then o { items: [func(item) for item in super.items] }
    else if $.isK8sObject(o) then func(o)
    else if std.isObject(o) then { [k]: $.deepMap(func, o[k]) for k in std.objectFields(o) }
    else if std.isArray(o) then [$.deepMap(func, x) for x in o]
    else if o == null then null
    else notACollection(o),

  // Folds func(accumulator, object) over every Kubernetes object in o, in field then element order.
  fold(func, o, init)::
    if isList(o) then $.fold(func, o.items, init)
    else if $.isK8sObject(o) then func(init, o)
    else if std.isObject(o) then $.fold(func, [o[k] for k in std.objectFields(o)], init)
    else if std.isArray(o) then std.foldl(function(acc, x) $.fold(func, x, acc), o, init)
    else if o == null then init
    else notACollection(o),

  local has(o, f, includeHidden) = if includeHidden then std.objectHasAll(o, f) else std.objectHas(o, f),

  local lookup(o, keys, default, includeHidden) =
    if !has(o, keys[0], includeHidden) then default
    else if std.length(keys) == 1 then o[keys[0]]
    else lookup(o[keys[0]], keys[1:], default, includeHidden),

  local exists(o, keys, includeHidden) =
    if !has(o, keys[0], includeHidden) then false
    else if std.length(keys) == 1 then true
    else exists(o[keys[0]], keys[1:], includeHidden),

  // getPath(obj, 'a.b.c', default): like std.get along a dotted path.
  getPath(obj, path, default=null, inc_hidden=true):: lookup(obj, std.split(path, '.'), default, inc_hidden),

  // objectHasPath(obj, 'a.b.c'): whether every field of the dotted path exists.
  objectHasPath(obj, path, inc_hidden=false):: exists(obj, std.split(path, '.'), inc_hidden),

  objectHasPathAll(obj, path):: exists(obj, std.split(path, '.'), true),

  // Accumulators for fold().
  layouts:: {
    // {'apiVersion.kind': {name: object}}; a repeated name fails.
    gvkName(accum, o):: accum {
      [o.apiVersion + '.' + o.kind]+: {
        assert !(o.metadata.name in super),
        [o.metadata.name]: o,
      },
    },

    // {'apiVersion.kind': {namespace or '_': {name: object}}}; a repeated name fails.
    gvkNsName(accum, o):: accum {
      [o.apiVersion + '.' + o.kind]+: {
        [std.get(o.metadata, 'namespace', default='_')]+: {
          assert !(o.metadata.name in super),
          [o.metadata.name]: o,
        },
      },
    },
  },
}
`;
