/**
 * macOS discovery of Thunderbolt ports from command output. Every command goes through one
 * {@link io.railmap.discovery.macos.CommandRunner}: the
 * {@link io.railmap.discovery.macos.ProcessCommandRunner} runs the real commands, the
 * {@link io.railmap.discovery.macos.CaptureDirectoryRunner} reads their saved output from a
 * directory. The entry point is {@link io.railmap.discovery.macos.ThunderboltPortSource}.
 */
package io.railmap.discovery.macos;
