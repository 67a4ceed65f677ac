"""Reading avahi-browse's answers: checked TXT records, forged ones skipped, and the Swift
side's rules for choosing a broker by name, and reading a stand-in avahi-browse's pipe. (A live
mDNS browse needs avahi-daemon: python/e2e/test_discovery.py runs one in network namespaces.)"""

import os
import shutil
import stat
import tempfile
import unittest
from unittest import mock

import tenfoot
from tenfoot import discovery

KEY = tenfoot.KeyPair.generate().public_key
FP = discovery.fingerprint_of(KEY)


def line(instance, address, port=7700, fp=FP, name="Living room", extra=""):
    txt = (f'"txtvers=1" "proto=1" "name={name}" "zone=" "control={port}" '
           f'"state={port + 1}" "pairing={port + 2}" "fp={fp}"{extra}')
    return f"=;eth0;IPv4;{instance};_tenfoot._tcp;local;tv.local;{address};{port};{txt}"


class Browse(unittest.TestCase):
    def test_a_resolved_answer_becomes_endpoints(self):
        found = discovery.parse_browse_output("\n".join([
            "+;eth0;IPv4;Living\\032room;_tenfoot._tcp;local",
            line("Living\\032room", "192.168.1.5"),
        ]))
        self.assertEqual(len(found), 1)
        self.assertEqual(found[0].instance, "Living room")
        self.assertEqual(found[0].endpoints.control, ["tcp://192.168.1.5:7700"])
        self.assertEqual(found[0].endpoints.state, ["tcp://192.168.1.5:7701"])
        self.assertEqual(found[0].endpoints.pairing, "tcp://192.168.1.5:7702")

    def test_forged_or_broken_records_are_skipped(self):
        bad = [
            line("a", "10.0.0.1", fp="XYZ"),
            line("b", "10.0.0.2").replace('"proto=1"', '"proto=2"'),
            line("c", "10.0.0.3").replace(";7700;", ";7709;"),  # SRV port is not control.
            line("d", "10.0.0.4", extra=' "fp=00000000"'),  # Duplicate key.
            line("e", "10.0.0.5").replace('"state=7701"', '"state=7700"'),
            line("f", "10.0.0.6").replace("IPv4", "IPv6"),
            line("g", "fe80::4c0e:42ff:fe70:6a6f"),  # An IPv6 address on an IPv4 answer.
        ]
        self.assertEqual(discovery.parse_browse_output("\n".join(bad)), [])

    def test_an_ipv6_address_on_an_ipv4_answer_asks_for_the_hosts_ipv4_address(self):
        # avahi-browse resolves an IPv4 answer to any address of its host, often IPv6
        # link-local; the host name's IPv4 address is asked for instead.
        asked = []
        def ipv4_of(host):
            asked.append(host)
            return {"tv.local": "10.0.0.7"}.get(host)
        found = discovery.parse_browse_output(line("tv", "fe80::4c0e:42ff:fe70:6a6f"), ipv4_of)
        self.assertEqual(asked, ["tv.local"])
        self.assertEqual(found[0].endpoints.control, ["tcp://10.0.0.7:7700"])
        self.assertEqual(discovery.parse_browse_output(line("tv", "fe80::1"), lambda _: None), [])
        self.assertEqual(discovery.parse_browse_output(line("tv", "fe80::1"), lambda _: "fe80::2"),
                         [])

    def test_choosing_by_name_follows_the_pins(self):
        one = discovery.parse_browse_output(line("tv", "10.0.0.1"))[0]
        impostor = discovery.parse_browse_output(line("tv", "10.0.0.9", fp="00000000"))[0]
        pins = {"tcp://10.0.0.1:7700": KEY, "tcp://10.0.0.9:7700": KEY}
        self.assertEqual(discovery.choose("tv", [impostor, one], pins.get), one)
        with self.assertRaises(tenfoot.DiscoveryError) as raised:
            discovery.choose("tv", [one, impostor])
        self.assertIn("several brokers", str(raised.exception))
        with self.assertRaises(tenfoot.DiscoveryError) as raised:
            discovery.choose("kitchen", [one])
        self.assertIn("seen: tv", str(raised.exception))
        with self.assertRaises(tenfoot.DiscoveryError) as raised:
            discovery.choose("tv", [impostor], pins.get)
        self.assertIn("another key", str(raised.exception))


class BrowseProcess(unittest.TestCase):
    """`browse` against a stand-in `avahi-browse` on the PATH (a real process and pipe)."""

    def fake_browse(self, output):
        """Puts a stand-in avahi-browse first on the PATH: it prints `output` in one write
        and stays open."""
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        fake = os.path.join(directory, "avahi-browse")
        with open(os.path.join(directory, "answers"), "w") as handle:
            handle.write(output)
        with open(fake, "w") as handle:
            handle.write(f"#!/bin/sh\ncat '{directory}/answers'\nexec sleep 60\n")
        os.chmod(fake, stat.S_IRWXU)
        path = directory + os.pathsep + os.environ.get("PATH", "")
        return mock.patch.dict(os.environ, {"PATH": path})

    def test_answers_written_at_once_are_all_read(self):
        # A daemon answering from its cache prints the "+" and "=" lines in one write: both
        # must be read, not only the first.
        with self.fake_browse("+;eth0;IPv4;tv;_tenfoot._tcp;local\n" + line("tv", "10.0.0.1")
                              + "\n"):
            found = discovery.browse("Living room", timeout=5)
        self.assertEqual([(a.instance, a.address) for a in found], [("tv", "10.0.0.1")])

    def test_an_answer_resolved_to_ipv6_is_resolved_again_for_ipv4(self):
        # The answer CI's namespaces gave: browsed over IPv4, resolved to link-local IPv6.
        with self.fake_browse(line("tv", "fe80::b4a0:deff:fe40:e5b5") + "\n"):
            resolver = os.path.join(os.environ["PATH"].split(os.pathsep)[0], "avahi-resolve")
            with open(resolver, "w") as handle:
                handle.write('#!/bin/sh\n[ "$1 $2 $3" = "-4 -n tv.local" ] && '
                             'printf "tv.local\\t10.0.0.8\\n"\n')
            os.chmod(resolver, stat.S_IRWXU)
            found = discovery.browse("Living room", timeout=5)
        self.assertEqual([(a.instance, a.address) for a in found], [("tv", "10.0.0.8")])

    def test_a_name_not_found_says_what_avahi_browse_printed(self):
        with self.fake_browse("+;eth0;IPv4;tv;_tenfoot._tcp;local\n"):
            with self.assertRaises(tenfoot.DiscoveryError) as raised:
                discovery.find_broker("Living room", timeout=0.5)
        self.assertIn("within 0.5 s (avahi-browse said: +;eth0;IPv4;tv;", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
