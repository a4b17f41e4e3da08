/**
 * Linux discovery from sysfs: RDMA ports under {@code /sys/class/infiniband/<hca>/ports/<n>}, their
 * netdevs, plain netdevs under {@code /sys/class/net/<if>}, and Thunderbolt/USB4 host-to-host links
 * (XDomains) under {@code /sys/bus/thunderbolt/devices} ({@link io.railmap.discovery.linux.XDomains}). The entry point is
 * {@link io.railmap.discovery.linux.SysfsPortSource}; the sysfs root is a parameter, so tests
 * run on directory trees.
 */
package io.railmap.discovery.linux;
