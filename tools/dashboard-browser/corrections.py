#!/usr/bin/python3
"""A corrected job's page in headless Chromium, as a coach uses it: sign in with the club's key,
open the job, press "Save corrections" with one more correction in the form, and see the next
version's totals. Screenshots before and after go to --out.

Run by Tests/IntegrationTests/CorrectionsJobTests.swift; shares check.py's browser set-up and
checks. Prints one line per check; the first failure prints the page and exits 1.
"""
import argparse

from selenium.webdriver.common.by import By

from check import check, drive, shot, sign_in, wait


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--club-key", required=True)
    parser.add_argument("--job", required=True, help="the club's corrected job")
    parser.add_argument("--corrections", required=True, help="the whole set of corrections to save (JSON)")
    parser.add_argument("--expect", required=True, help="text the confirmed totals show after saving")
    parser.add_argument("--out", required=True, help="directory for screenshots")
    args = parser.parse_args()
    drive(args.out, lambda driver: save(driver, args), "all correction checks passed")


def save(driver, args):
    sign_in(driver, args.url, args.club_key)
    driver.get(f"{args.url}/dashboard/jobs/{args.job}")
    wait(driver, lambda d: d.find_elements(By.ID, "corrections"), "the job page has a Corrections section")
    driver.execute_script("document.getElementById('corrections').scrollIntoView()")
    shot(driver, args.out, "job-corrected")
    box = driver.find_element(By.ID, "corrections-text")
    box.clear()
    box.send_keys(args.corrections)
    driver.find_element(By.CSS_SELECTOR, "form.corrections button").click()
    wait(driver, lambda d: args.expect in d.find_element(By.ID, "confirmed-totals").text,
         f"after saving, the confirmed totals show '{args.expect}'")
    rows = driver.find_elements(By.CSS_SELECTOR, "#confirmed-rows tr.changed")
    check(len(rows) > 0, f"the corrected and added rows are marked ({len(rows)})")
    driver.execute_script("document.getElementById('corrections').scrollIntoView()")
    shot(driver, args.out, "job-saved")


if __name__ == "__main__":
    main()
