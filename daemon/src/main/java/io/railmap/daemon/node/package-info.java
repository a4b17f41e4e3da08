/**
 * This node at run time: polling local discovery for link changes ({@link io.railmap.daemon.node.LinkWatcher})
 * and logging what changed, port by port and for the topology as a whole.
 */
package io.railmap.daemon.node;
