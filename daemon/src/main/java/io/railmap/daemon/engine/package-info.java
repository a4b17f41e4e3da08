/**
 * The single owner of what this daemon knows: its own record (built from discovered ports and the
 * far ends the probe heard) and the newest record of every other node.
 */
package io.railmap.daemon.engine;
