/**
 * The daemon's event stream: {@link io.railmap.daemon.events.ChangeFeed} turns each rebuild's state
 * into changes ({@link io.railmap.matrix.change.Changes}) and logs a line when the cables change;
 * {@link io.railmap.daemon.events.EventLog} numbers them, keeps a bounded backlog and hands them to
 * the streams of {@code GET /v1/events}.
 */
package io.railmap.daemon.events;
