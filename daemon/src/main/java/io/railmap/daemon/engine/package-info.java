/**
 * The single owner of what this daemon knows: its own record (built from discovered ports and the
 * far ends the probe heard, of this start's incarnation) and the record of every other node's
 * current member.
 */
package io.railmap.daemon.engine;
