# Homebrew formula for railmap: the release archive railmap-VERSION.tar.gz on Homebrew's openjdk, with man
# pages, bash and zsh completion, and railmapd as a `brew services` service that runs as the launchd plist
# in launchd/io.railmap.railmapd.plist does. Untested on a Mac (docs/install.md, "Homebrew"): CI checks its
# syntax (ruby -c) and that its version and archive name are the build's (HomebrewFormulaTest).
# A release sets the version in url and the sha256 from dist/target/railmap-VERSION.tar.gz.sha256.
class Railmap < Formula
  desc "Which cable joins which two ports, and rail-aligned configs for collective libraries"
  homepage "https://github.com/railmap/railmap"
  url "https://github.com/railmap/railmap/releases/download/v0.1.0-SNAPSHOT/railmap-0.1.0-SNAPSHOT.tar.gz"
  sha256 "6d57db468b0815215da8fea78d638c2141b331d12a96831e9b0e615787a234a0"

  depends_on "openjdk"

  def install
    # bin/railmap and bin/railmapd find lib/ beside their own bin/ (and source bin/pick-java.sh there)
    libexec.install "bin", "lib"
    # JAVA_HOME: Homebrew's openjdk, unless the user's environment names another
    %w[railmap railmapd].each do |name|
      (bin/name).write_env_script libexec/"bin"/name, Language::Java.overridable_java_home_env
    end
    man1.install Dir["man/man1/*.1.gz"]
    man8.install "man/man8/railmapd.8.gz"
    bash_completion.install "completion/railmap.bash" => "railmap"
    bash_completion.install "completion/railmapd.bash" => "railmapd"
    zsh_completion.install "completion/_railmap", "completion/_railmapd"
    # the daemon's settings: etc/railmap/railmapd.properties, kept across upgrades once edited
    (etc/"railmap").install "config/railmapd.properties"
    pkgshare.install "examples"
    doc.install "README.md", "docs", "daemon"
  end

  # What launchd/io.railmap.railmapd.plist says, in Homebrew's words (Library/Homebrew/service.rb, to_plist):
  # a launch daemon (root, at boot: sudo brew services start railmap), started at load, restarted when it
  # exits with an error and not sooner than 5 s after the last start, a background process, its output in one
  # log. The settings file and the log sit under Homebrew's prefix; the API socket is where the plist puts it.
  # launchd's ExitTimeOut has no word here: launchd's default (20 s) exceeds railmapd's own 5 s stop deadline.
  service do
    run [opt_bin/"railmapd", "--config", etc/"railmap/railmapd.properties", "--api-socket", "/var/run/railmapd.sock"]
    require_root true
    keep_alive successful_exit: false
    throttle_interval 5
    process_type :background
    log_path var/"log/railmapd.log"
    error_log_path var/"log/railmapd.log"
    environment_variables PATH: std_service_path_env
  end

  def caveats
    <<~EOS
      railmapd's settings: #{etc}/railmap/railmapd.properties (keys are its flags; on a Mac: interfaces=en*).
      Run it at boot, as root (system_profiler and the Thunderbolt ports need no more, but a node runs headless):
        sudo brew services start railmap
      Then: railmap ports --daemon unix:/var/run/railmapd.sock
    EOS
  end

  test do
    assert_match "railmap #{version}", shell_output("#{bin}/railmap --version")
    assert_match "railmapd #{version}", shell_output("#{bin}/railmapd --version")
  end
end
