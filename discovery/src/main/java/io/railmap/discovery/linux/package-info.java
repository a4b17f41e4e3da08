/**
 * Linux discovery from sysfs: RDMA ports under {@code /sys/class/infiniband/<hca>/ports/<n>}, their
 * netdevs and plain netdevs under {@code /sys/class/net/<if>}. The entry point is
 * {@link io.railmap.discovery.linux.SysfsPortSource}; the sysfs root is a parameter, so tests
 * run on directory trees.
 */
package io.railmap.discovery.linux;
