/**
 * {@code railmap lab}: a virtual cluster of real daemons on one Linux machine (module {@code lab}),
 * one class per subcommand, and {@link io.railmap.cli.lab.LabSetup} for what they share: where the
 * lab lives, how its daemons are started, and how to wait for them to agree.
 */
package io.railmap.cli.lab;
