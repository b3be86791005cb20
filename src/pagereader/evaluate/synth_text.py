"""The text of the synthetic documents: slides and legal pages in English, Traditional Chinese
and Korean, written for pagereader so that its tests and examples own their ground truth.

Legal pages carry what the verifier guards: article and section numbers and modal words
(shall/may/must; 得/應/不得/須; 하여야 한다/할 수 있다/아니 된다), in different sentences on
every page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Lang = Literal["en", "zh-Hant", "ko"]
LANGS: tuple[Lang, ...] = ("en", "zh-Hant", "ko")


@dataclass(frozen=True)
class Slide:
    """One slide: a title, bullets and the speaker's notes."""

    lang: Lang
    title: str
    bullets: tuple[str, ...]
    notes: str


@dataclass(frozen=True)
class LegalPage:
    """One page of a legal text: running header, optional title, numbered paragraphs."""

    lang: Lang
    header: str
    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class TableSpec:
    """A ruled table whose first column header spans two rows and second spans the rest."""

    title: str
    corner: str
    group: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str
    notes: str

    def lines(self) -> list[str]:
        """The table's text row by row, the merged header cells once each."""
        head = [f"{self.corner} {self.group}", " ".join(self.columns)]
        return head + [" ".join(row) for row in self.rows]

    def html(self) -> str:
        """The table as HTML with its merged header cells (the reference for table metrics)."""
        head = (
            f'<tr><th rowspan="2">{self.corner}</th>'
            f'<th colspan="{len(self.columns)}">{self.group}</th></tr>'
            "<tr>" + "".join(f"<th>{c}</th>" for c in self.columns) + "</tr>"
        )
        body = "".join(
            "<tr>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>" for row in self.rows
        )
        return f"<table>{head}{body}</table>"


SLIDES: dict[Lang, tuple[Slide, ...]] = {
    "en": (
        Slide(
            "en",
            "Quarterly Operations Review",
            (
                "Document throughput rose 18% to 42,000 pages per day",
                "Median latency per slide fell from 7.4 s to 3.1 s",
                "Scanned contracts are now routed to the dense-page model",
                "Target for next quarter: 99% accuracy on Korean forms",
            ),
            "Open with the throughput figures, then explain why latency fell so sharply.",
        ),
        Slide(
            "en",
            "Rollout Plan for the Reading Service",
            (
                "Phase 1: pilot with the legal team in March",
                "Phase 2: every regional office by the end of June",
                "Each office keeps the text layer as a fallback",
                "Pages flagged for review are checked within 2 days",
                "Budget: 5 seconds per slide on a single GPU",
            ),
            "Stress that the fallback keeps every office working if the model server is down.",
        ),
    ),
    "zh-Hant": (
        Slide(
            "zh-Hant",
            "年度文件數位化成果",
            (
                "全年完成掃描檔案共十二萬頁",
                "合約文件辨識正確率達百分之九十八",
                "平均每頁處理時間縮短至三秒以內",
                "明年將擴大至各地分公司使用",
            ),
            "先說明整體成果，再介紹明年的推動計畫與預算。",
        ),
        Slide(
            "zh-Hant",
            "系統導入時程與分工",
            (
                "第一階段：三月完成法務部門試辦",
                "第二階段：六月推廣至全體同仁",
                "重要條文須經人工複核後始得歸檔",
                "每週檢討辨識錯誤並調整設定",
            ),
            "請各部門主管於下週五前指定一位聯絡窗口。",
        ),
    ),
    "ko": (
        Slide(
            "ko",
            "문서 처리 현황 보고",
            (
                "하루 평균 처리량 4만 2천 페이지 달성",
                "슬라이드당 처리 시간을 3초 이내로 단축",
                "스캔 계약서는 고밀도 모델로 자동 분류",
                "다음 분기 한국어 인식 정확도 목표 99%",
            ),
            "처리량 변화를 먼저 설명하고 정확도 목표는 마지막에 강조합니다.",
        ),
        Slide(
            "ko",
            "도입 일정 및 역할 분담",
            (
                "1단계: 3월 법무팀 시범 운영",
                "2단계: 6월까지 전 지점 확대 적용",
                "검토 대상 페이지는 담당자가 직접 확인",
                "매주 오류 사례를 공유하고 설정을 개선",
            ),
            "지점별 담당자 명단은 회의 후 메일로 공유합니다.",
        ),
    ),
}

TABLE_SLIDE = TableSpec(
    title="Pages Processed by Office",
    corner="Office",
    group="Pages processed",
    columns=("Q1", "Q2", "Q3"),
    rows=(
        ("Taipei", "12,400", "13,900", "15,200"),
        ("Seoul", "9,800", "11,300", "12,050"),
        ("Dublin", "7,150", "7,600", "8,420"),
        ("Total", "29,350", "32,800", "35,670"),
    ),
    caption="Figure 1. Pages processed per quarter, all offices",
    notes="The chart shows the totals row; Taipei grew fastest in the third quarter.",
)

LEGAL: dict[Lang, tuple[LegalPage, ...]] = {
    "en": (
        LegalPage(
            "en",
            "Data Processing Agreement - Conversion Services",
            "Data Processing Agreement",
            (
                "Article 1 (Purpose). This Agreement governs the processing of personal data by "
                "the Processor on behalf of the Controller in connection with the document "
                "conversion services described in Annex A.",
                "Article 2 (Obligations of the Processor).",
                "Section 2.1 The Processor shall process personal data only on documented "
                "instructions from the Controller, including with regard to transfers.",
                "Section 2.2 The Processor shall ensure that persons authorised to process the "
                "data have committed themselves to confidentiality.",
                "Section 2.3 The Processor must notify the Controller within 48 hours after "
                "becoming aware of a personal data breach.",
                "Article 3 (Sub-processors). The Processor may engage another processor only "
                "with the prior written consent of the Controller and shall not move data "
                "outside the agreed regions.",
            ),
        ),
        LegalPage(
            "en",
            "Data Processing Agreement - Conversion Services",
            "",
            (
                "Article 4 (Security).",
                "Section 4.1 The Processor shall encrypt all stored data and rotate the keys at "
                "least every 90 days.",
                "Section 4.2 Access logs must be kept for no less than 12 months and may be "
                "inspected by the Controller upon 10 business days of notice.",
                "Article 5 (Audits). The Controller may conduct one audit per calendar year at "
                "its own cost. The Processor shall make available all information needed to "
                "show compliance.",
                "Article 6 (Term). This Agreement shall remain in force for 24 months. Either "
                "party may terminate it by giving 60 days of written notice, and the Processor "
                "must then delete or return all personal data within 30 days.",
                "Article 7 (Governing Law). This Agreement shall be governed by the laws of "
                "Ireland.",
            ),
        ),
    ),
    "zh-Hant": (
        LegalPage(
            "zh-Hant",
            "翠湖社區管理委員會　公共設施使用規約",
            "公共設施使用規約",
            (
                "第一條　本規約依公寓大廈管理條例訂定之，適用於本社區全體區分所有權人、"
                "住戶及其受僱人。",
                "第二條　住戶使用公共設施，應遵守本規約及管理委員會之決議，並應愛惜公物，"
                "不得任意移動或破壞。",
                "第三條　游泳池開放時間為每日上午六時至晚間十時。未滿十二歲之兒童須由成年"
                "家屬陪同，始得入場。",
                "第四條　住戶得預約使用多功能會議室，每戶每月以八小時為限；預約後不使用者，"
                "應於三日前取消。",
                "第五條　住戶不得於樓梯間、走廊或防火巷堆置私人物品；經通知後七日內仍未清除"
                "者，管理委員會得逕行處理，費用由該住戶負擔。",
            ),
        ),
        LegalPage(
            "zh-Hant",
            "翠湖社區管理委員會　公共設施使用規約",
            "",
            (
                "第六條　住戶飼養寵物，應以牽繩或提籠方式出入公共區域，並須即時清理排泄物。",
                "第七條　裝修工程應於施工前十日向管理委員會申請，並繳交保證金新臺幣三萬元；"
                "施工時間以平日上午九時至下午五時為限，例假日不得施工。",
                "第八條　管理費應於每月十日前繳納。逾期二個月以上者，管理委員會得依法催告，"
                "並得暫停其使用公共設施之權利。",
                "第九條　違反本規約者，管理委員會應先以書面勸導；勸導無效者，得處新臺幣一千"
                "元以上五千元以下之違約金。",
                "第十條　本規約經區分所有權人會議通過後施行，修正時亦同。",
            ),
        ),
    ),
    "ko": (
        LegalPage(
            "ko",
            "한빛마을 아파트 공동주택 관리규약",
            "공동주택 관리규약",
            (
                "제1조(목적) 이 규약은 공동주택의 관리와 사용에 관하여 필요한 사항을 정함을 "
                "목적으로 한다.",
                "제2조(적용 범위) 이 규약은 입주자와 사용자 및 관리주체에게 적용된다.",
                "제3조(관리비 납부) 입주자는 매월 25일까지 관리비를 납부하여야 한다. 다만, "
                "부득이한 사유가 있는 경우에는 관리주체와 협의하여 납부 기한을 연장할 수 있다.",
                "제4조(공용시설 이용) 입주자는 관리사무소에 신청하여 주민회의실을 이용할 수 "
                "있다. 이용 시간은 오전 9시부터 오후 10시까지로 한다.",
                "제5조(금지 행위) 입주자는 복도와 계단에 개인 물품을 쌓아 두어서는 아니 된다.",
            ),
        ),
        LegalPage(
            "ko",
            "한빛마을 아파트 공동주택 관리규약",
            "",
            (
                "제6조(반려동물) 반려동물과 함께 공용 공간을 이동할 때에는 목줄을 착용시켜야 "
                "하며, 배설물은 즉시 수거하여야 한다.",
                "제7조(내부 공사) 입주자가 내부 공사를 하려는 경우에는 공사 시작 7일 전까지 "
                "관리주체에게 신고하여야 한다. 공사는 평일 오전 9시부터 오후 6시까지만 할 수 "
                "있다.",
                "제8조(주차) 세대당 1대의 차량을 무료로 등록할 수 있으며, 두 번째 차량부터는 "
                "월 2만 원의 주차비를 부담하여야 한다.",
                "제9조(위반 시 조치) 관리주체는 이 규약을 위반한 자에게 서면으로 시정을 "
                "요구할 수 있다.",
                "제10조(시행일) 이 규약은 입주자대표회의의 의결을 거쳐 공고한 날부터 시행한다.",
            ),
        ),
    ),
}

TWO_COLUMN_HEADER = "Notes on Document Engineering - Volume 12"
TWO_COLUMN_TITLE = "Reading Order in Multi-Column Pages"
TWO_COLUMN_LEFT = (
    "A page set in two columns is read from the top of the left column to its foot, and only "
    "then from the top of the right column. Software that sorts lines by their height alone "
    "mixes the two columns and produces sentences that no author wrote.",
    "The first clue is the gutter: a vertical band of white space that runs through the body "
    "of the page. Cutting the page along the widest such band separates the columns before "
    "any line is read.",
    "Headers and footers sit outside the columns. They are read first and last, or dropped, "
    "but never placed between two paragraphs of the body.",
)
TWO_COLUMN_RIGHT = (
    "The right column continues the argument of the left one. A reader who reaches this "
    "paragraph should already know why the gutter matters and how headers are treated.",
    "Tables and figures that span both columns interrupt the flow. They are read where they "
    "stand, and the columns below them start a new pair that is read in the same way.",
    "Checking the order is simple when the ground truth is known: compare the recovered text "
    "with the reference and count the characters that had to move.",
)

DENSE_TITLE = "Schedule B - Unit Prices and Delivery Terms (small print)"
DENSE_ITEMS = (
    "archive box",
    "scanner lamp",
    "toner cartridge",
    "label roll",
    "binder clip set",
    "document sleeve",
    "storage shelf",
    "barcode reader",
)

MIXED_PAGE: tuple[tuple[Lang, str], ...] = (
    ("en", "Meeting Minutes - Digitisation Working Group"),
    ("zh-Hant", "數位化工作小組會議紀錄"),
    (
        "en",
        "Date: 14 March 2025. Present: the records office, the legal team and two members of "
        "the operations staff. The group reviewed the scanning results of the first quarter.",
    ),
    (
        "zh-Hant",
        "一、本季共掃描合約文件三千二百份，其中模糊或歪斜之頁面應重新掃描後始得歸檔。",
    ),
    (
        "zh-Hant",
        "二、含有個人資料之文件不得上傳至外部服務，須經主管核准後方得例外處理。",
    ),
    (
        "en",
        "Action: the legal team shall send the list of critical clauses by 28 March, and the "
        "records office may then start the second batch of 1,500 contracts.",
    ),
    ("zh-Hant", "三、下次會議訂於四月十一日下午二時舉行。"),
)


def dense_lines(count: int) -> list[str]:
    """Lines of a price schedule for the small-print page, made by arithmetic."""
    lines = []
    for i in range(1, count + 1):
        item = DENSE_ITEMS[i % len(DENSE_ITEMS)]
        price = (i * 37) % 400 + 12.5
        lines.append(
            f"{i:03d}. Item {item}, batch {1000 + i * 13}: unit price EUR {price:.2f}, minimum "
            f"order {5 + i % 20} units, delivery within {3 + i % 11} working days of the order."
        )
    return lines


def big_table() -> TableSpec:
    """A 30-row table of delivery volumes, numbers made by arithmetic, not by chance."""
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    rows = tuple(
        (f"C-{101 + r}", *(f"{(r * 53 + m * 29) % 900 + 100:,}" for m in range(len(months))))
        for r in range(30)
    )
    return TableSpec(
        title="Annex C - Delivery Volumes 2024",
        corner="Item",
        group="Monthly deliveries (units)",
        columns=months,
        rows=rows,
        caption="",
        notes="",
    )
