/**
 * What local discovery finds and the seams it is found through: a {@link io.railmap.discovery.model.PortSource}
 * per operating system returns a {@link io.railmap.discovery.model.Discovery} (the ports found, each a
 * {@link io.railmap.discovery.model.LocalPort} wrapping a matrix {@link io.railmap.matrix.model.Port} with no
 * neighbours yet; the ports skipped, each with a reason; notes on fields dropped to unknown), and a
 * {@link io.railmap.discovery.model.SwitchPortSource} tells the switch port at the far end of ports
 * ({@link io.railmap.discovery.model.SwitchPorts}). Also the settings the sources share: which interfaces are
 * ports ({@link io.railmap.discovery.model.InterfaceSelection}) and assumed RDMA devices
 * ({@link io.railmap.discovery.model.AssumedRdma}). The implementations live in {@code linux}, {@code macos},
 * {@code lldp} and {@code infiniband}; the list that picks them in {@code sources}.
 *
 * <p><b>Skip the port, never the node.</b> A missing or odd value costs one port, or one field of
 * it, never the whole node. Every reason and note names the file (full path) or command, the
 * field and what was wrong, showing the value read escaped and cut ({@link
 * io.railmap.discovery.model.Quote}): a control character or a 10 MB value is never echoed raw.
 * Numbers are read with a bounded count of digits, so a 401-digit speed is an odd value, never an
 * exception. Only a source that is not there at all (no {@code /sys/class/net}; no usable
 * {@code system_profiler} or {@code networksetup} output) fails the run, with a
 * {@link io.railmap.discovery.model.DiscoveryException} naming it; nothing else is thrown. Discovery
 * logs nothing itself: the daemon's link watcher logs each skip once, when it first appears.
 *
 * <p><b>Per field.</b> A field is <em>required</em> (an odd value skips the port) when the port
 * cannot be identified or its state not told without it, and <em>optional</em> (an odd value
 * leaves it unknown, with a note) when the record format allows it to be unknown and unknown is
 * the safe reading:
 * <table>
 *   <caption>What an odd value costs</caption>
 *   <tr><th>source</th><th>field</th><th>odd value</th></tr>
 *   <tr><td>Linux {@code ports/<n>}</td><td>port number (directory name), {@code state},
 *       {@code link_layer}</td><td>skips the port</td></tr>
 *   <tr><td></td><td>{@code phys_state}, {@code rate}</td><td>rate unknown (a port of unknown rate
 *       passes no positive rate filter)</td></tr>
 *   <tr><td></td><td>{@code gids/<i>}</td><td>that GID left out</td></tr>
 *   <tr><td></td><td>{@code gid_attrs/types/<i>}</td><td>that GID's type unknown</td></tr>
 *   <tr><td></td><td>the netdev ({@code gid_attrs/ndevs/<i>}, {@code device/net/})</td><td>skips the
 *       port: no other entry is trusted to stand in</td></tr>
 *   <tr><td>Linux {@code /sys/class/net/<if>}</td><td>{@code operstate}, {@code carrier}</td><td>skips the
 *       port (its state and its probe depend on them)</td></tr>
 *   <tr><td></td><td>{@code address}, {@code mtu}, {@code ifindex}, {@code speed}</td><td>unknown</td></tr>
 *   <tr><td></td><td>{@code master} of a bridge port ({@code brport} present)</td><td>bridge unknown</td></tr>
 *   <tr><td>Linux {@code /sys/bus/thunderbolt/devices/<xdomain>}</td><td>{@code uevent} over a page or
 *       not UTF-8, {@code unique_id} or the host router's {@code <domain>-0/unique_id} (no UUID), the
 *       thunderbolt-net netdev (none, several, a name that is no netdev's)</td><td>skips the XDomain
 *       (a route that is not an XDomain's is no link at all)</td></tr>
 *   <tr><td></td><td>{@code rx_speed}, {@code rx_lanes}, {@code tx_lanes}, {@code device_name}</td>
 *       <td>link speed or peer name unknown</td></tr>
 *   <tr><td></td><td>a {@code usb4_rdma} device on a domain with several XDomains, or whose
 *       {@code device} is not the domain's host interface</td><td>tied to no link, with a note (it
 *       stays an RDMA port on its GID netdev)</td></tr>
 *   <tr><td>Linux, the JDK's interface list</td><td>the list as a whole</td><td>every port's addresses
 *       unknown</td></tr>
 *   <tr><td>{@code system_profiler}</td><td>receptacle, {@code _items} (the peer host)</td><td>skips the
 *       receptacle</td></tr>
 *   <tr><td></td><td>{@code current_speed_key}</td><td>link speed unknown (then never an RDMA
 *       link)</td></tr>
 *   <tr><td></td><td>the bus's and the peer's {@code domain_uuid_key}, the peer's {@code _name}</td>
 *       <td>unknown (a cable is then confirmed by the probe alone)</td></tr>
 *   <tr><td></td><td>two buses claiming one receptacle</td><td>skips both, each reason naming
 *       both</td></tr>
 *   <tr><td>{@code networksetup}</td><td>the "Thunderbolt N" block: an odd line, a Device that is no
 *       interface name, a key twice</td><td>skips the receptacle mapped to it</td></tr>
 *   <tr><td></td><td>Ethernet Address</td><td>unknown</td></tr>
 *   <tr><td>{@code ibv_devinfo}</td><td>an odd line in a device's block</td><td>skips the port of that
 *       device</td></tr>
 *   <tr><td></td><td>a {@code max_qp}, {@code max_pd}, {@code max_mr} or {@code max_cqe} line
 *       ({@code -v}) that is no count, or a second one</td><td>that limit unknown, with a note</td></tr>
 *   <tr><td>{@code ibv_devinfo -v} on Linux</td><td>the whole output (no program, a failure, no
 *       {@code hca_id})</td><td>every RDMA port's limits unknown, with a note</td></tr>
 *   <tr><td>{@code ibv_devinfo}, {@code rdma_ctl}</td><td>the whole output</td><td>the next rule names
 *       the RDMA devices (see {@code macos.ThunderboltRdma}), with a note; without {@code rdma_ctl}
 *       the node's {@code rdmaEnabled} is unknown</td></tr>
 *   <tr><td>{@code ifconfig -a}</td><td>the whole output</td><td>every port's addresses unknown and no
 *       bridge, with a note</td></tr>
 *   <tr><td></td><td>no block for the port's netdev, or two</td><td>its addresses unknown</td></tr>
 *   <tr><td></td><td>a {@code member:} line naming no interface; one interface in two bridges</td>
 *       <td>the line ignored; that interface's bridge unknown</td></tr>
 *   <tr><td>any address list</td><td>an address that is no IP address; more than 16</td><td>that
 *       address left out; the first 16 (IPv4 first) kept (see {@code PortAddresses})</td></tr>
 * </table>
 * Two ports that claim one netdev, or one RDMA device and port, are both skipped.
 *
 * <p><b>The switch at the far end.</b> A {@link io.railmap.discovery.model.SwitchPortSource} asks a
 * helper program (lldpd's neighbour table, infiniband-diags), run as a child process bounded in
 * time and output ({@code io.railmap.process.BoundedCommand}).
 * {@code io.railmap.discovery.sources.WithSwitchPorts} attaches what they told to the ports a
 * {@code PortSource} found (a port without carrier gets none). A neighbour with a bad field is
 * skipped with a note; an interface with several LLDP neighbours gets no switch port and a note;
 * a helper that cannot be asked at all (not installed, not running, refused) gives none and says so.
 */
package io.railmap.discovery.model;
