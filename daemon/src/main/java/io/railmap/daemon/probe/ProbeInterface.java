package io.railmap.daemon.probe;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A probed port as the kernel knows it: its interface index (which names it as the arrival port
 * of datagrams) and its link-layer address (which its hellos carry).
 *
 * @param port    the port
 * @param ifindex its interface index in this network namespace, ≥ 1
 * @param mac     its link-layer address, in the form of {@link ProbeDatagram#mac()}
 */
record ProbeInterface(ProbePort port, int ifindex, String mac) {
    ProbeInterface {
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(mac, "mac");
    }

    /** @return the port's netdev */
    String netdev() {
        return port.netdev();
    }

    /**
     * Looks a port up in the kernel. Blocking (it asks the kernel for the interface list): call it
     * off the event loop.
     *
     * @param port the port to look up
     * @return its index and link-layer address
     * @throws IllegalStateException when no interface has that name, or it has no link-layer
     *                               address, no multicast, or no IPv6 link-local address (the probe
     *                               runs only on ports with IPv6)
     * @throws SocketException       when the kernel cannot be asked
     */
    static ProbeInterface lookup(ProbePort port) throws SocketException {
        String name = port.netdev();
        NetworkInterface nic = NetworkInterface.getByName(name);
        if (nic == null) {
            throw new IllegalStateException("port " + name + ": no such interface");
        }
        byte[] hardware = nic.getHardwareAddress();
        if (hardware == null || hardware.length == 0 || hardware.length > ProbeDatagram.MAX_MAC_OCTETS) {
            throw new IllegalStateException("port " + name + ": no link-layer address of 1 to "
                    + ProbeDatagram.MAX_MAC_OCTETS + " octets");
        }
        if (!nic.supportsMulticast()) {
            throw new IllegalStateException("port " + name + ": multicast is off");
        }
        boolean linkLocal = false;
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
            linkLocal |= address instanceof Inet6Address && address.isLinkLocalAddress();
        }
        if (!linkLocal) {
            throw new IllegalStateException("port " + name + ": no IPv6 link-local address yet"
                    + " (IPv6 disabled on it, or the link is down)");
        }
        return new ProbeInterface(port, nic.getIndex(), HexFormat.ofDelimiter(":").formatHex(hardware));
    }
}
