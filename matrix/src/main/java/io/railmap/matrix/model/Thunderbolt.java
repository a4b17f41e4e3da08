package io.railmap.matrix.model;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Thunderbolt link behind a port: the domain (bus) it leaves from and the peer host's domain.
 * Every domain has a UUID and a connected peer host reports its own, so a cable is proven when
 * {@code A.peerDomainUuid == B.domainUuid} and {@code B.peerDomainUuid == A.domainUuid}.
 *
 * <p>macOS: from {@code system_profiler SPThunderboltDataType -json}, one bus per receptacle; a peer
 * Mac appears under the bus with its own bus's {@code domain_uuid_key}. Linux: from
 * {@code /sys/bus/thunderbolt/devices}, one XDomain device per peer host ({@code xdomain}); the
 * domain's host router {@code <domain>-0/unique_id} is this end's UUID and the XDomain's
 * {@code unique_id} the peer's. One Linux domain may carry several cables (a host router has up to
 * two ports), so a Linux {@code domainUuid} need not be unique to one port (the topology pairs such
 * ports only where the pair of UUIDs tells them apart).
 *
 * @param domainUuid    this end's domain UUID, upper case (macOS {@code domain_uuid_key}; Linux the
 *                      host router's {@code unique_id}); empty when the capture lacks it
 * @param peerDomainUuid the connected peer host's domain UUID, upper case (macOS its
 *                      {@code domain_uuid_key}; Linux the XDomain's {@code unique_id}); empty when no
 *                      peer host is connected or the capture lacks it
 * @param receptacle    macOS: the receptacle number ({@code receptacle_id_key}), which names hardware
 *                      port "Thunderbolt N" in {@code networksetup -listallhardwareports}. Linux: the
 *                      host router's physical port the cable leaves from, 1-based, from the first hop
 *                      of the XDomain's route as thunderbolt-net numbers it. At least 1
 * @param linkSpeedGbps the negotiated link speed in Gb/s (macOS {@code current_speed_key} "80 Gb/s";
 *                      Linux {@code rx_speed} per lane times the lanes); empty when nothing is linked
 *                      or it is unknown
 * @param behindHub     true when the peer host sits behind a hub or dock (macOS: one {@code _items}
 *                      level deeper; Linux: a route of more than one hop), which rules out RDMA
 * @param peerName      the peer host's name, for people (macOS {@code _name} such as "Mac Studio";
 *                      Linux the XDomain's {@code device_name}); empty when none
 * @param xdomain       Linux: the XDomain device's name ({@code 0-1}: domain 0, route 1 in hex);
 *                      empty on macOS
 */
public record Thunderbolt(
        Optional<String> domainUuid,
        Optional<String> peerDomainUuid,
        int receptacle,
        Optional<Double> linkSpeedGbps,
        boolean behindHub,
        Optional<String> peerName,
        Optional<String> xdomain) {

    /** RDMA over Thunderbolt on macOS needs Thunderbolt 5: a direct link at 80 Gb/s or more. */
    public static final double RDMA_MIN_LINK_GBPS = 80.0;
    /** An XDomain device name: {@code <domain>-<route in hex>} (dev_set_name in drivers/thunderbolt/xdomain.c). */
    private static final Pattern XDOMAIN = Pattern.compile("\\d{1,9}-[0-9a-f]{1,16}");

    /**
     * Normalises UUIDs to upper case.
     *
     * @throws IllegalArgumentException when the receptacle is below 1, the speed is not a finite
     *                                  number ≥ 0, or {@code xdomain} is not {@code <domain>-<hex route>}
     */
    public Thunderbolt {
        domainUuid = domainUuid.map(u -> u.toUpperCase(Locale.ROOT));
        peerDomainUuid = peerDomainUuid.map(u -> u.toUpperCase(Locale.ROOT));
        if (receptacle < 1) {
            throw new IllegalArgumentException("Thunderbolt receptacle " + receptacle + " is below 1");
        }
        linkSpeedGbps.ifPresent(s -> Rates.requireRate("Thunderbolt link speed", s));
        xdomain.ifPresent(x -> {
            if (!XDOMAIN.matcher(x).matches()) {
                throw new IllegalArgumentException("XDomain \"" + Names.escape(x, 32) + "\" is not <domain>-<hex route> such as 0-1");
            }
        });
    }

    /**
     * A link found on macOS (no XDomain name).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Thunderbolt(Optional<String> domainUuid, Optional<String> peerDomainUuid, int receptacle, Optional<Double> linkSpeedGbps,
                       boolean behindHub, Optional<String> peerName) {
        this(domainUuid, peerDomainUuid, receptacle, linkSpeedGbps, behindHub, peerName, Optional.empty());
    }

    /**
     * @return true when this link can carry RDMA. macOS: a peer host directly attached (not behind a
     *         hub or dock) at {@value #RDMA_MIN_LINK_GBPS} Gb/s or more; Thunderbolt 4 (40 Gb/s)
     *         cannot. Linux ({@code xdomain} present): a peer host directly attached, at any speed:
     *         thunderbolt-ibverbs' {@code usb4_rdma} devices run over USB4 links of 2 × 20 Gb/s (its
     *         bench/results/strix-2x40-noiommu and 8845HS-mbp-1x40g), and whether there is one is
     *         the port's RDMA device, not this link
     */
    public boolean rdmaCapable() {
        if (xdomain.isPresent()) {
            return !behindHub;
        }
        return !behindHub && linkSpeedGbps.map(s -> s >= RDMA_MIN_LINK_GBPS).orElse(false);
    }
}
