import type { Plugin, Rollup } from "vite";

/**
 * A routed SPA finds its page's chunk only after the entry has downloaded and run: one more round trip
 * before the first paint. This emits a tiny script, loaded first and async from index.html (the CSP allows
 * no inline script), that preloads the chunks and CSS of the page being opened, so they arrive beside the
 * entry. `routes` maps a pathname to the modules its route lazy-loads (see criticalRoutes.ts).
 */
export function routePreload(routes: Record<string, string[]>): Plugin {
  return {
    name: "loanmint-route-preload",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === "chunk");
      const entry = chunks.find((chunk) => chunk.isEntry);
      const html = bundle["index.html"] as Rollup.OutputAsset | undefined;
      if (!entry || !html) return;
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (files: string[], into = new Set<string>()) => {
        for (const file of files) {
          if (into.has(file) || !byFile.has(file)) continue;
          into.add(file);
          closure(byFile.get(file)!.imports, into);
        }
        return into;
      };
      // index.html already modulepreloads the entry's own static imports.
      const shell = closure([entry.fileName]);
      const table: Record<string, string[]> = {};
      for (const [path, modules] of Object.entries(routes)) {
        const starts = modules.map((id) => {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(`/${id}`));
          if (!chunk) this.error(`routePreload: ${id} (for ${path}) is not a chunk of its own; update app/build/criticalRoutes.ts`);
          return chunk.fileName;
        });
        const files = [...closure(starts)].filter((file) => !shell.has(file));
        const css = files.flatMap((file) => [...(byFile.get(file)!.viteMetadata?.importedCss ?? [])]);
        table[path] = [...files, ...css];
      }
      const source = `(function(){var r=${JSON.stringify(table)};var p=location.pathname.replace(/\\/+$/,"")||"/";var f=r[p]||[];for(var i=0;i<f.length;i++){var l=document.createElement("link");var c=/\\.css$/.test(f[i]);l.rel=c?"preload":"modulepreload";l.as=c?"style":"script";l.crossOrigin="";l.href="/"+f[i];document.head.appendChild(l)}})();\n`;
      const fileName = this.getFileName(this.emitFile({ type: "asset", name: "route-preload.js", source }));
      // First in <head> after the charset, so it is requested before anything else.
      const tag = `<script src="/${fileName}" async></script>`;
      const page = String(html.source);
      html.source = /<meta charset[^>]*>/i.test(page) ? page.replace(/(<meta charset[^>]*>)/i, `$1\n    ${tag}`) : page.replace("<head>", `<head>\n    ${tag}`);
    },
  };
}
