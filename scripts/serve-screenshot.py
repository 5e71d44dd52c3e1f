#!/usr/bin/env python3
"""Takes the screenshot of `optcube serve`'s page in docs/: a scramble applied and solved
optimally, the iterations shown, in headless chromium driven through chromedriver (Debian's
`chromium` and `chromium-driver` packages).

    optcube serve --port 8765 &
    scripts/serve-screenshot.py http://127.0.0.1:8765/ docs/serve.png "R U F' L2 D B' R2 U' F D2 L'"
"""
import base64
import json
import subprocess
import sys
import time
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)["value"]


def main():
    url, out, scramble = sys.argv[1], sys.argv[2], sys.argv[3]
    port = 9517
    driver = subprocess.Popen(["chromedriver", f"--port={port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        time.sleep(1)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--window-size=1280,1000"]}}}}
        sid = call(base, "POST", "/session", caps)["sessionId"]
        s = f"/session/{sid}"
        find = lambda css: call(base, "POST", s + "/element",
                                {"using": "css selector", "value": css})[ELEMENT]
        click = lambda css: call(base, "POST", f"{s}/element/{find(css)}/click", {})
        run = lambda js: call(base, "POST", s + "/execute/sync", {"script": js, "args": []})
        call(base, "POST", s + "/url", {"url": url})
        time.sleep(1)
        call(base, "POST", f"{s}/element/{find('#scramble')}/value", {"text": scramble})
        click("#set-scramble")
        time.sleep(1)
        click("#solve")
        while not run("const e = document.getElementById('solution'); return e && e.textContent"):
            time.sleep(0.5)
        time.sleep(0.5)
        png = call(base, "GET", s + "/screenshot")
        with open(out, "wb") as f:
            f.write(base64.b64decode(png))
        print(run("return document.getElementById('result').textContent"))
        call(base, "DELETE", s)
    finally:
        driver.kill()


if __name__ == "__main__":
    main()
