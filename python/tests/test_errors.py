"""Every broker error code maps to its own exception class, all under TenFootError."""

import unittest

import tenfoot
from tenfoot import errors, pb


class TypedErrors(unittest.TestCase):
    def test_every_code_has_a_class_named_after_it(self):
        for name, code in pb.ErrorCode.items():
            if code == pb.ERROR_CODE_UNSPECIFIED:
                continue
            with self.subTest(name=name):
                error = tenfoot.BrokerError.from_wire(pb.Error(code=code, message="why",
                                                               retry_after_ms=7))
                self.assertIsNot(type(error), tenfoot.BrokerError, "no subclass for " + name)
                self.assertEqual(type(error).__name__,
                                 "".join(p.title() for p in name[len("ERROR_CODE_"):].split("_")))
                self.assertEqual((error.code, error.name, error.message, error.retry_after_ms),
                                 (code, name, "why", 7))
                self.assertIsInstance(error, tenfoot.TenFootError)
                self.assertEqual(str(error), f"{name}: why")

    def test_the_ones_apps_catch_are_exported(self):
        cases = [(pb.ERROR_CODE_UNKNOWN_SCREEN, tenfoot.UnknownScreen),
                 (pb.ERROR_CODE_FORBIDDEN, tenfoot.Forbidden),
                 (pb.ERROR_CODE_NOT_PAIRED, tenfoot.NotPaired),
                 (pb.ERROR_CODE_SCREEN_GONE, tenfoot.ScreenGone),
                 (pb.ERROR_CODE_PAIRING_BACKOFF, errors.PairingBackoff)]
        for code, cls in cases:
            self.assertIsInstance(tenfoot.BrokerError.from_wire(pb.Error(code=code)), cls)

    def test_a_code_from_a_later_protocol_is_still_a_broker_error(self):
        error = tenfoot.BrokerError.from_wire(pb.Error(code=999, message="new"))
        self.assertIs(type(error), tenfoot.BrokerError)
        self.assertEqual(error.name, "999")

    def test_a_timeout_is_both_ours_and_the_standard_one(self):
        self.assertTrue(issubclass(tenfoot.Timeout, TimeoutError))
        self.assertTrue(issubclass(tenfoot.Timeout, tenfoot.TenFootError))


if __name__ == "__main__":
    unittest.main()
