/**
 * The engine's data schema, as a ytt schema document: what myks's legacy path
 * resolves every environment against before its env-data files. Written for
 * kubecfg from myks's documented engine scopes (environment, application,
 * argocd, helm, kbld, render, yttPkg, myks); the converter resolves the legacy
 * side with it and states its defaults once, at the root of the KCL tree.
 */
export const DATA_SCHEMA_PATH = '<myks data schema>';

export const DATA_SCHEMA = `#@data/values-schema
---
environment:
  id: ""
  applications:
  - proto: ""
    name: ""
application: {}
argocd:
  enabled: true
  namespace: argocd
  app:
    name: ""
    prefix: ""
    finalizers: [""]
    destination:
      name: ""
      server: ""
      namespace: ""
    source:
      path: ""
      #@schema/type any=True
      plugin:
      repoURL: ""
      targetRevision: ""
    syncPolicy:
      prune: true
      selfHeal: true
      #@schema/type any=True
      syncOptions: {}
  env:
    name: ""
    prefix: ""
    generateSecret: true
  project:
    enabled: true
    name: ""
    prefix: ""
    destination:
      name: ""
      server: ""
      namespace: "*"
helm:
  buildDependencies: false
  capabilities: [""]
  includeCRDs: true
  kubeVersion: ""
  namespace: ""
  charts:
  - releaseName: ""
    buildDependencies: false
    includeCRDs: false
    name: ""
    namespace: ""
kbld:
  enabled: false
  imagesAnnotation: true
  cache: true
  #@schema/type any=True
  overrides: []
yttPkg:
  dirs: [""]
render:
  includeNamespace: false
myks:
  gitRepoBranch: ""
  gitRepoUrl: ""
`;
