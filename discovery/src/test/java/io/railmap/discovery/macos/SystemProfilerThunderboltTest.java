package io.railmap.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.railmap.discovery.model.SkipException;
import org.junit.jupiter.api.Test;

/** Bus shapes the real captures do not show; written in the fields of a full capture. */
class SystemProfilerThunderboltTest {
    private static final String HOST = "{\"_name\": \"Mac Studio\", \"domain_uuid_key\": \"28ca4c30-a263-4c55-b302-953416d0b209\"}";

    private static JsonNode bus(String items) throws Exception {
        String json = "{\"SPThunderboltDataType\": [{\"_name\": \"thunderboltusb4_bus_0\","
                + " \"domain_uuid_key\": \"817DCFA4-B481-4100-80FC-91C7AA969F0B\","
                + " \"receptacle_1_tag\": {\"current_speed_key\": \"40 Gb/s\", \"receptacle_id_key\": \"1\"},"
                + " \"_items\": " + items + "}]}";
        return SystemProfilerThunderbolt.buses(new CommandOutput("test", json)).get(0);
    }

    @Test
    void aPeerHostTwoLevelsDownKeepsItsDomainUuidAndIsBehindAHub() throws Exception {
        ThunderboltBus bus = SystemProfilerThunderbolt.bus(bus(
                "[{\"_name\": \"Dock\", \"_items\": [{\"_name\": \"Hub\", \"_items\": [" + HOST + "]}]}]"), "test: bus 0");

        assertThat(bus.peerHost()).isTrue();
        assertThat(bus.thunderbolt().behindHub()).isTrue();
        assertThat(bus.thunderbolt().peerDomainUuid()).contains("28CA4C30-A263-4C55-B302-953416D0B209");
        assertThat(bus.thunderbolt().domainUuid()).contains("817DCFA4-B481-4100-80FC-91C7AA969F0B");
    }

    @Test
    void devicesAloneGiveNoPeer() throws Exception {
        ThunderboltBus bus = SystemProfilerThunderbolt.bus(bus("[{\"_name\": \"Drive\", \"_items\": [{\"_name\": \"SSD\"}]}]"), "test: bus 0");

        assertThat(bus.peerHost()).isFalse();
        assertThat(bus.thunderbolt().peerName()).isEmpty();
        assertThat(bus.thunderbolt().behindHub()).isFalse();
        assertThat(bus.thunderbolt().linkSpeedGbps()).contains(40.0);
    }

    @Test
    void twoPeerHostsOnOneBusSkipIt() throws Exception {
        JsonNode bus = bus("[{\"_name\": \"Dock\", \"_items\": [" + HOST + ", {\"_name\": \"MacBook Pro\", \"services_title\": []}]}]");

        assertThatThrownBy(() -> SystemProfilerThunderbolt.bus(bus, "test: bus 0"))
                .isInstanceOf(SkipException.class)
                .hasMessage("test: bus 0: 2 peer hosts [\"Mac Studio\", \"MacBook Pro\"] on one receptacle; one peer per"
                        + " Thunderbolt bus is expected");
    }

    /** The UUIDs, the speed and the peer's name are optional: an odd one is dropped to unknown with a note. */
    @Test
    void oddOptionalFieldsAreDroppedToUnknownWithANote() throws Exception {
        String json = "{\"SPThunderboltDataType\": [{\"_name\": \"thunderboltusb4_bus_0\", \"domain_uuid_key\": 7,"
                + " \"receptacle_1_tag\": {\"current_speed_key\": \"" + "9".repeat(401) + " Gb/s\", \"receptacle_id_key\": \"1\"},"
                + " \"_items\": [{\"_name\": \"Mac\\u001b]0;pwned\\u0007\", \"domain_uuid_key\": \"not-a-uuid\"}]}]}";
        JsonNode node = SystemProfilerThunderbolt.buses(new CommandOutput("test", json)).get(0);

        ThunderboltBus bus = SystemProfilerThunderbolt.bus(node, "test: bus 0");

        assertThat(bus.peerHost()).isTrue();
        assertThat(bus.thunderbolt().linkSpeedGbps()).isEmpty();
        assertThat(bus.thunderbolt().domainUuid()).isEmpty();
        assertThat(bus.thunderbolt().peerDomainUuid()).isEmpty();
        assertThat(bus.thunderbolt().peerName()).isEmpty();
        assertThat(bus.thunderbolt().rdmaCapable()).isFalse();
        assertThat(bus.notes()).containsExactly(
                "link speed unknown: test: bus 0: current_speed_key \"" + "9".repeat(64) + "…(342 more)\" is not a speed such"
                        + " as \"80 Gb/s\"",
                "domain UUID unknown: test: bus 0: domain_uuid_key a number is not a UUID",
                "peer name unknown: test: bus 0: a peer host's _name \"Mac\\x1b]0;pwned\\x07\" is not 1 to 128 printable"
                        + " characters",
                "peer domain UUID unknown: test: bus 0: domain_uuid_key \"not-a-uuid\" is not a UUID");
    }

    @Test
    void aReceptacleThatIsNoNumberSkipsTheBus() throws Exception {
        String json = "{\"SPThunderboltDataType\": [{\"receptacle_1_tag\": {\"receptacle_id_key\": \"" + "1".repeat(401) + "\"}}]}";
        JsonNode node = SystemProfilerThunderbolt.buses(new CommandOutput("test", json)).get(0);

        assertThatThrownBy(() -> SystemProfilerThunderbolt.bus(node, "test: bus #0"))
                .isInstanceOf(SkipException.class)
                .hasMessage("test: bus #0: receptacle_id_key \"" + "1".repeat(64) + "…(337 more)\" is not a receptacle number"
                        + " (1 to 9999)");
    }
}
