# Sourced by bin/railmap and bin/railmapd once they have set $root (the release, package or checkout they
# run from) and $name (their own name). Sets $java, the Java runtime to run, and $java_from, where it was
# found, which --version shows:
#   bundled    $root/runtime/bin/java, the runtime of a self-contained archive (railmap-VERSION-linux-ARCH.tar.gz)
#   JAVA_HOME  $JAVA_HOME/bin/java
#   PATH       java on the PATH
# in this order: the bundled runtime comes first so that a JAVA_HOME set for other software (an older Java)
# does not take over a self-contained install. Exits 1 with one line saying what to do when there is no
# Java, when JAVA_HOME holds none, or when the runtime is older than Java 17 (the JVM would fail on
# railmap's classes with a trace).

pick_java_fail() {
  echo "$name: $1" >&2
  exit 1
}

if [ -x "$root/runtime/bin/java" ]; then
  java=$root/runtime/bin/java
  java_from=bundled
elif [ -n "${JAVA_HOME:-}" ]; then
  [ -x "$JAVA_HOME/bin/java" ] || pick_java_fail "JAVA_HOME=$JAVA_HOME holds no bin/java: point it at a Java 17 or newer, or unset it to use java on the PATH"
  java=$JAVA_HOME/bin/java
  java_from=JAVA_HOME
elif java=$(command -v java 2>/dev/null) && [ -x "$java" ]; then
  java_from=PATH
else
  pick_java_fail "no Java runtime: install Java 17 or newer (Debian, Ubuntu: apt-get install default-jre-headless; macOS: brew install openjdk) or set JAVA_HOME, or use the self-contained archive railmap-VERSION-linux-ARCH.tar.gz, which brings its own"
fi

# The runtime's home holds a file 'release' naming its version (JAVA_VERSION="17.0.15"; Java 8's says "1.8.0_...").
pick_java_home=$java
while [ -L "$pick_java_home" ]; do
  pick_java_link=$(readlink "$pick_java_home")
  case $pick_java_link in /*) pick_java_home=$pick_java_link ;; *) pick_java_home=$(dirname "$pick_java_home")/$pick_java_link ;; esac
done
pick_java_home=$(dirname "$(dirname "$pick_java_home")")
if [ -r "$pick_java_home/release" ]; then
  pick_java_major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\)[^0-9].*/\1/p' "$pick_java_home/release")
  if [ -n "$pick_java_major" ] && [ "$pick_java_major" -lt 17 ]; then
    [ "$pick_java_major" = 1 ] && pick_java_major=8
    pick_java_fail "$java ($java_from) is Java $pick_java_major: $name needs Java 17 or newer; set JAVA_HOME to one"
  fi
fi
