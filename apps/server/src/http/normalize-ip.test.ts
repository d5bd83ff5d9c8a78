import { describe, expect, it } from "vitest";
import { normalizeIp } from "./normalize-ip";

describe("normalizeIp", () => {
  it("keeps an IPv4 address, lower-cases anything else that isn't IPv6", () => {
    expect(normalizeIp("127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeIp("Example.COM")).toBe("example.com");
  });

  it("reads an IPv4-mapped IPv6 address as its IPv4 address, dotted or in hex", () => {
    expect(normalizeIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeIp("::ffff:c000:0201")).toBe("192.0.2.1");
    expect(normalizeIp("0:0:0:0:0:FFFF:0:0")).toBe("0.0.0.0");
  });

  it("counts any other IPv6 address by its /64, written one way", () => {
    expect(normalizeIp("2001:0DB8:ABCD:0012:0000:0000:0000:0001")).toBe("2001:db8:abcd:12::");
    expect(normalizeIp("2001:db8:abcd:12:ffff:1:2:3")).toBe("2001:db8:abcd:12::");
    expect(normalizeIp("2001:db8:0:0:1::")).toBe("2001:db8::");
    expect(normalizeIp("0:db8:0:1::5")).toBe("0:db8:0:1::");
    expect(normalizeIp("::1")).toBe("::");
    expect(normalizeIp("::1.2.3.4")).toBe("::");
    expect(normalizeIp("fe80::1%eth0")).toBe("fe80::");
  });
});
