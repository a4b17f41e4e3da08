package io.railmap.daemon.events;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who gets an event stream when its slots are short, so that one peer (one local user, one remote
 * address) cannot take them all: a peer holds at most {@code perPeer} streams (more are refused; its
 * open streams are never closed for its own newer ones, which would make clients beyond the share
 * take each other's place every second); once every slot is taken, a peer holding at least two
 * fewer streams than the busiest peer takes the busiest peer's oldest stream (max-min fairness: the
 * closed stream's client, asking again, holds as many as the newcomer and is refused, so nothing
 * churns), and any other peer is refused. A closed stream's client resumes with
 * {@code Last-Event-ID} and misses nothing still held.
 *
 * <p>Pure: no state, no I/O. Cost: O(n) in the streams open.
 */
final class StreamShares {
    private StreamShares() {
    }

    /** What happens to a request for a stream. */
    sealed interface Decision permits Admit, Replace, Refuse {
    }

    /** A free slot: the stream opens. */
    record Admit() implements Decision {
    }

    /**
     * The stream opens in place of another, which is closed.
     *
     * @param index the closed stream's index in the list given
     * @param why   a sentence for the closed stream's client
     */
    record Replace(int index, String why) implements Decision {
    }

    /**
     * No slot for this peer.
     *
     * @param why a sentence for the client
     */
    record Refuse(String why) implements Decision {
    }

    /**
     * @param open    the peer of each open stream, oldest first
     * @param peer    the peer asking
     * @param max     streams at once, at least 1
     * @param perPeer streams of one peer at once, at least 1
     * @return what to do
     */
    static Decision decide(List<String> open, String peer, int max, int perPeer) {
        Map<String, Integer> count = new HashMap<>();
        open.forEach(p -> count.merge(p, 1, Integer::sum));
        int own = count.getOrDefault(peer, 0);
        if (own >= perPeer) {
            return new Refuse("this peer holds " + own + " event streams, the most one local user or address may (of " + max
                    + "): close one, or try again later");
        }
        if (open.size() < max) {
            return new Admit();
        }
        // the busiest peer; of equals, the one whose oldest stream is oldest (the first met in age order)
        String busiest = open.get(0);
        for (String p : open) {
            if (count.get(p) > count.get(busiest)) {
                busiest = p;
            }
        }
        if (count.get(busiest) > own + 1) {
            return new Replace(open.indexOf(busiest), "all " + max + " event streams were taken and this peer held the most: another "
                    + "peer took this one's place; resume with Last-Event-ID");
        }
        return new Refuse(max + " event streams are open, the most this daemon serves, and this peer holds as many as any other: "
                + "close one, or try again later");
    }
}
