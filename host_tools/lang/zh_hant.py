"""繁體中文: the device's screens (WORDS) and the page and reports (PAGE).

Game-specific words are quoted from the rulebooks in ../shared/seeds (002: 花磚密語 Azul,
001: 花磚物語・琉璃之光 Sintra, 000: 花磚物語・花園宮殿 Queen's Garden, 004: 5211 花磚密語
特別版), each with the phrase it comes from. A word no rulebook gives keeps its "?" (as the
English names do): Sintra's green and blue glass, Queen's Garden's two greens, lilac,
purple, and the plant and lily patterns. A key "game|text" is text in that game's screens.
"""

WORDS = {
    # --- the games and their variants ---
    "Azul": "花磚密語",  # 002: 在《花磚密語》中
    "Sintra": "琉璃之光",  # 001: 花磚物語・琉璃之光
    "Queen's Garden": "花園宮殿",  # 000: 花磚物語·花園宮殿
    "Garden": "花園宮殿",
    "5211": "5211",  # 004: 5211 花磚密語 特別版
    "azul|coloured wall": "彩色牆面",  # 002: 翻到有彩色牆面的那一面
    "azul|grey wall": "灰色牆面",  # 002: 玩家圖板中的灰色牆面將用於遊玩變體規則
    "sintra|side A": "A面",  # 001: 要麼A面，要麼B面
    "sintra|side B": "B面",
    "garden|standard": "標準",
    "garden|variant side": "變體規則",  # 000: 變體規則 ... 使用計分版圖的背面
    "5211|standard": "標準",
    "5211|long (to 50)": "久時變體50分",  # 004: 久時變體 ... 達到或超過50分
    "Sintra board": "琉璃之光版圖",
    # --- colours: Azul's tiles (002), Sintra's glass (001), Queen's Garden's (000), 5211's cards (004) ---
    "azul|blu": "藍",  # 002: 藍色瓷磚
    "azul|yel": "黃",  # 002: 黃色瓷磚
    "azul|red": "紅",  # 002: 紅色瓷磚
    "azul|blk": "黑",  # 002: 黑色瓷磚
    "azul|wht": "白",  # 002: 帶有白色與藍色的瓷磚
    "sintra|pnk": "粉紅",  # 001: 粉紅色彩繪玻璃
    "sintra|org": "橙",  # 001: 橙色彩繪玻璃
    "sintra|yel": "黃",  # 001: 黃色彩繪玻璃
    "sintra|grn?": "綠?",
    "sintra|blu?": "藍?",
    "sintra|pink": "粉紅",
    "sintra|orange": "橙",
    "sintra|yellow": "黃",
    "sintra|green?": "綠?",
    "sintra|blue?": "藍?",
    "garden|blu": "藍",  # 000: 全部藍色瓷磚
    "garden|yel": "黃",  # 000: 黃色鳥兒
    "garden|lgr?": "淺綠?",  # (000 says 綠色 only: which green is not given)
    "garden|dgr?": "深綠?",
    "garden|lil?": "淡紫?",
    "garden|pur?": "紫?",
    "garden|tree": "大樹",  # 000: 大樹-1、鳥兒-2
    "garden|bird": "鳥兒",
    "garden|butterfly": "蝴蝶",  # 000: 三隻蝴蝶代表 3
    "garden|flower": "花朵",  # 000: 四片花瓣的花朵代表 4
    "garden|plant?": "植物?",
    "garden|lily?": "百合?",
    "5211|grn": "綠",  # 004: 綠色卡
    "5211|yel": "黃",  # 004: 黃色卡
    "5211|blu": "深藍",  # 004: 深藍色卡
    "5211|org": "橘",  # 004: 橘色卡
    "5211|tea": "藍綠",  # 004: 藍綠色卡
    "5211|green": "綠",
    "5211|yellow": "黃",
    "5211|blue": "深藍",
    "5211|orange": "橘",
    "5211|teal": "藍綠",
    "5211|R": "雞",  # 004: 公雞卡
    "5211|roosters": "公雞",
    # the seats' colours (the LEDs')
    "red": "紅",
    "blu": "藍",
    "grn": "綠",
    "yel": "黃",
    "pur": "紫",
    # --- the main menu, new game ---
    "New game": "新遊戲",
    "History": "歷史紀錄",
    "Settings": "設定",
    "Resume": "繼續",
    "Game": "遊戲",
    "Variant": "變體",
    "Players": "玩家人數",
    "%d players": "%d人",
    "Player %d (%s)": "玩家%d (%s)",
    "Start player": "起始玩家",  # 002: 起始玩家
    "%s in play": "%s進行中",
    "put aside R%d": "暫存 第%d輪",
    "cancel": "取消",
    # --- the scoreboard ---
    " LAST": " 最後",
    "!=to do": "!=待輸入",
    "S=starts": "S=起始",
    "S=starts !=to do": "S=起始 !=待輸入",
    "OK: end round": "OK：結束本輪",
    "bonus %s (%s)": "顏色獎勵%s(%s)",  # 001: 顏色獎勵
    "End round": "結束本輪",
    "Note": "備註",
    "%s final": "%s 結束",
    "won: %s": "勝：%s",
    "tie: %s": "平手：%s",
    "shared": "共享勝利",  # 002/001/004: 共享勝利
    # --- a round's entries ---
    "Round %d": "第%d輪",  # 002: 輪
    "End round %d": "結束第%d輪",
    "Undo": "復原",
    "Redo": "重做",
    "save": "儲存",
    "save %s": "儲存 %s",
    "no other value fits": "沒有其他可用的值",
    "undone: %s": "已復原：%s",
    "redone: %s": "已重做：%s",
    "nothing to undo": "沒有可復原的",
    "nothing to redo": "沒有可重做的",
    # Azul (002)
    "azul|Wall": "牆面",  # 002: 牆面鋪磚
    "Wall %s": "牆面 %s",
    "azul|First marker": "起始玩家標記",  # 002: 起始玩家標記
    "First marker": "起始玩家標記",
    "%s: floor 0": "%s：地板排0",
    "the marker needs a floor slot": "標記需要地板排的空格",  # 002: 地板排
    "R1": "1排", "R2": "2排", "R3": "3排", "R4": "4排", "R5": "5排",  # 002: 第一排 ... 第五排
    "R1 -": "1排 -", "R2 -": "2排 -", "R3 -": "3排 -", "R4 -": "4排 -", "R5 -": "5排 -",
    "%s c%d": "%s%d列",
    "floor": "地板排",
    "floor 0: the marker is on it": "地板排0：有起始玩家標記",
    "%s: already in row": "%s：此排已有",
    "%s: column taken": "%s：此列已有瓷磚",
    "%s: column has %s": "%s：此列已有%s",
    "%s: all %d %s in use": "%s：%d塊%s都用了",  # 002: 每種花色20塊
    "bonuses: at end": "獎勵：遊戲結束時",
    "azul|most complete horizontal rows": "完成橫排較多",  # 002: 比較各自完成的橫排數量
    "azul|placement": "鋪磚",  # 002: 牆面鋪磚
    "azul|floor": "地板排",
    "azul|full rows": "完成橫排",
    "azul|row bonus": "橫排獎勵",  # 002: 每填滿一個橫排，得到2分
    "azul|column bonus": "直排獎勵",  # 002: 每填滿一個直排，得到7分
    "azul|colour bonus": "花色獎勵",  # 002: 每擺放所有5塊相同花色的瓷磚，得到10分
    # Sintra (001)
    "Round %d colour": "第%d輪顏色",  # 001: 回合表
    "sintra|Window": "窗戶",  # 001: 皇宮窗戶
    "Window %s": "窗戶 %s",
    "sintra|Broken": "碎玻璃",  # 001: 碎玻璃
    "Broken %s": "碎玻璃 %s",
    "sintra|Leftover": "剩餘玻璃",
    "Leftover %s": "剩餘玻璃 %s",
    "sintra|Start tile": "起始玩家標記",  # 001: 一併拿走起始玩家標記
    "Start tile": "起始玩家標記",
    "First from ctr": "起始玩家標記",
    "%s: done": "%s：已完成",
    "leftover glass entered: done": "剩餘玻璃已輸入：已完成",
    "window": "窗戶",
    "keep": "保留",  # 001: 選擇保留1塊彩繪玻璃
    "bonus": "獎勵",
    "glass": "玻璃",
    "bonus 0: the kept %s counts": "獎勵0：保留的%s也算",
    "bonus 5: kept glass not %s": "獎勵5：保留的不是%s",
    "%d: track reset": "%d：記錄表重置",  # 001: 碎玻璃記錄表 ... 放回最頂那格
    "track: at end": "記錄表：遊戲結束時",
    "scored at end": "遊戲結束時計分",
    "sintra|fewer points lost on the broken-glass track": "碎玻璃扣分最少",  # 001: 因碎玻璃扣分最少的玩家勝出
    "sintra|windows": "窗戶",
    "sintra|colour bonus": "顏色獎勵",  # 001: 顏色獎勵
    "sintra|track resets": "記錄表重置",
    "sintra|marker penalty": "指示物扣分",  # 001: 扣除右方顯示的分數
    "sintra|glass lost": "碎玻璃扣分",
    "sintra|leftover pts": "花紋條得分",  # 001: 自己所有花紋條上，每3塊彩繪玻璃得1分
    "sintra|side pts": "版圖面獎勵",  # 001: 根據你們使用皇宮版圖哪面
    "sintra|full windows": "完成窗戶",  # 001: 完成了多少行皇宮窗戶
    "sintra|colour": "顏色",
    # the Sintra board (001: 皇宮版圖, 碎玻璃記錄表, 裝飾)
    "Side %s board": "%s面版圖",
    "%s windows L to R": "%s面窗戶左至右",
    "win %d": "窗%d",
    "%s win %s": "%s窗 %s",
    "space %d": "格%d",
    "Track top-bottom": "記錄表上至下",
    "Track %s": "記錄表 %s",
    "A ornaments": "A面裝飾",
    "orn %d: win": "裝飾%d：窗",
    "Orn A %s": "A裝飾 %s",
    "Continue": "繼續",
    "confirmed": "已確認",
    "unverified": "未確認",
    "save: %d ? left": "儲存：剩%d個?",
    "LEFT/RIGHT sets %s": "LEFT/RIGHT設定%s",
    "%s is still ?": "%s仍是?",
    "enter the %s windows first": "請先輸入%s面窗戶",
    "track: 13 spaces 0 .. -18": "記錄表：13格 0..-18",
    "track rises at space %d": "記錄表在第%d格上升",
    "ornaments: 4 window pairs": "裝飾：4對相鄰窗戶",
    "2 ornaments at win %d-%d": "窗%d-%d有2個裝飾",
    "windows: 8 values 0..9": "窗戶：8個值 0..9",
    # Queen's Garden (000)
    "garden|Buy": "購買",  # 000: 購買供應堆 1 塊面朝下的擴建組件
    "Buy %s": "購買 %s",
    "garden|Pass": "略過",  # 000: D) 略過
    "Pass %s": "略過 %s",
    "garden|Buy/pass": "購買/略過",
    "garden|Score": "計分",  # 000: 階段二：計分
    "Score %s": "計分 %s",
    "garden|Reserve": "倉庫",  # 000: 每位玩家點算自己倉庫裏的東西
    "Reserve %s": "倉庫 %s",
    "garden|Garden": "花園",  # 000: 然後計算花園
    "Garden %s": "花園 %s",
    "garden|Bonus": "額外得分",  # 000: 額外得分辦法
    "Bonus %s": "額外得分 %s",
    "Variant side": "變體規則",
    "You read off the": "依計分版圖背面",
    "board as printed": "印的數值輸入：",
    "each round: pts": "每輪：分數",
    "game end: bonus": "結束：額外得分",
    "OK: start": "OK：開始",
    "value %d x": "數值%d×",  # 000: 每種花紋的圖案本身已經表示了兩個數值
    "%d first pass": "%d 首位略過",  # 000: 若你是本輪第一位略過的玩家
    "categ %d": "類別%d",
    "points": "分數",
    "pillars": "柱子",  # 000: 花園裏的每根柱子讓你獲得 1 分
    "jokers": "百搭瓷磚",  # 000: 百搭瓷磚
    "exp 1": "擴建1",  # 000: 擴建組件
    "exp 2": "擴建2",
    "Add group": "新增群組",  # 000: 群組
    "Group": "群組",
    "of": "種類",
    "pattern n": "花紋數",
    "no": "否",
    "yes": "是",
    "%s: 3+ hexagons needed": "%s：需要至少3個六角形",  # 000: 最少 3 個符合該條件的六角形
    "garden|start": "起始分",  # 000: 分數軌上 15 分的位置
    "garden|bought": "購買",
    "garden|discarded": "棄掉",
    "garden|first pass": "首位略過",
    "garden|rounds": "各輪計分",
    "garden|reserve": "倉庫",
    "garden|groups": "群組",
    "garden|group bonus": "群組獎勵",  # 000: 每個剛好 6 個六角形的群組額外獲得 6 分
    "garden|side bonus": "背面額外得分",
    # 5211 (004)
    "5211|Reveal": "翻開",  # 004: 同時翻開所有卡牌
    "Reveal %s": "翻開 %s",
    "5211|New deck": "新抽牌堆",  # 004: 抽牌堆
    "New deck": "新抽牌堆",
    "card %d": "卡牌%d",
    "a card to choose": "請選擇卡牌",
    "no %s left": "沒有%s了",
    "at round end": "一輪結束時計分",  # 004: 一輪計分
    "5211|most cards in the score pile": "分數堆卡牌最多",  # 004: 分數堆中有最多張卡牌的玩家獲勝
    "5211|cards kept": "保留卡牌",
    "5211|score pile": "分數堆",  # 004: 分數堆
    "5211|roosters kept": "公雞卡",  # 004: 公雞卡
    "5211|decks": "抽牌堆數",
    "5211|deck1": "牌堆1", "5211|deck2": "牌堆2", "5211|deck3": "牌堆3", "5211|deck4": "牌堆4",
    "5211|deck5": "牌堆5", "5211|deck6": "牌堆6", "5211|deck7": "牌堆7", "5211|deck8": "牌堆8",
    "5211|deck9": "牌堆9",
    "5211|last scored": "最後計分",
    # --- the history ---
    "(none)": "(無)",
    "unreadable": "無法讀取",
    "result unknown": "結果不明",
    "won %s %d": "勝 %s %d",
    "final": "結束",
    "R%d unfinished": "第%d輪 未完",
    "Standings": "排名",
    "Delete": "刪除",
    "Delete #%d?": "刪除 #%d？",
    "delete": "刪除",
    "#%d deleted": "#%d 已刪除",
    "not resumed: %s": "未繼續：%s",
    "not deleted: %s": "未刪除：%s",
    # --- the settings ---
    "LEDs & symbols": "LED與符號",
    "LEDs": "LED數",
    "bright": "亮度",
    "layout": "排列",
    "symbols": "符號",
    "strip": "燈條",
    "5x5": "5x5",
    "off": "關",
    "on": "開",
    "Display": "顯示",
    "dim": "變暗",
    "dark": "熄滅",
    "30 s": "30秒", "1 min": "1分", "2 min": "2分", "5 min": "5分", "10 min": "10分",
    "20 min": "20分", "30 min": "30分", "1 h": "1小時",
    "Games kept": "保留局數",
    "Keep %d games?": "保留%d局？",
    "delete %d oldest": "刪除最舊%d局",
    "saved": "已儲存",
    "saved, %d deleted": "已儲存，刪除%d局",
    "%d deleted, setting not saved": "已刪除%d局，設定未儲存",
    "Button test": "按鍵測試",
    "press a key": "請按鍵",
    " long": " 長按",
    " rep": " 連按",
    "hold BACK: exit": "長按BACK：離開",
    "Language": "語言",
    "About": "關於",
    "version %s": "版本 %s",
    "image: %s": "韌體映像：%s",
    "files on flash": "快閃記憶體檔案",
    "English": "English",
    "Chinese (trad.)": "繁體中文",
    "Japanese": "日本語",
    # --- messages: the flash, the record ---
    "not saved: %s": "未儲存：%s",
    "not filed: %s": "未存檔：%s",
    "not in history: %s": "未移入歷史紀錄：%s",
    "the game's record is gone from storage": "遊戲紀錄已從儲存空間消失",
    "error: %s": "錯誤：%s",
    "storage full": "儲存空間已滿",
    "file missing": "檔案不見了",
    "storage error %s": "儲存錯誤 %s",
    "last entry: %s": "最後一筆：%s",
    "record damaged": "紀錄損壞",
    "bad record kept as %s": "損壞紀錄保存為%s",
    "last entry lost": "最後一筆遺失",
    "record end unreadable, entries lost": "紀錄結尾無法讀取，輸入遺失",
    "no FRAM: a power cut can lose saved entries": "沒有FRAM：斷電可能遺失已儲存的輸入",
    "%s: kept as torn-%d": "%s：保存為torn-%d",
    "%s not opened: %s": "%s未開啟：%s",
    "%s: %d tiles a round": "%s：每輪%d塊瓷磚",  # 002: 每輪 ... 工廠
    "%s: %d panes a round": "%s：每輪%d塊玻璃",
    "%s: no %s left": "%s：沒有%s了",
    "Check a score": "檢查分數",
    "simulator": "模擬器",
    # Check a score (app.check): a final Azul wall (002: 牆面, 排, 列, 瓷磚, 地板排)
    "Check: wall": "檢查：牆面",
    "r%d c%d %s": "%d排%d列 %s",
    "%d tile": "%d塊瓷磚",
    "%d tiles": "%d塊瓷磚",
    "OK: tile": "OK：瓷磚",
    "claim >": "聲稱分數 >",
    "Check: claim": "檢查：聲稱分數",
    "claim %d": "聲稱 %d",
    "Claim %d": "聲稱 %d",
    "check": "檢查",
    "checking %d%%": "檢查中 %d%%",
    "checking...": "檢查中...",
    "placed %s..%s": "鋪磚 %s..%s",  # 002: 牆面鋪磚
    "bonus +%d": "獎勵 +%d",
    "colours +%d..%d": "花色 +%d..%d",  # 002: 花色獎勵
    "total %s..%s": "總分 %s..%s",
    "%d: plausible": "%d：可能",
    "%d: impossible": "%d：不可能",
    "(%d too many)": "(多%d分)",
    "%d: only with": "%d：需要",  # three rows: "50：需要" "地板排扣3+分" "才可能"
    "%d+ lost on the": "地板排扣%d+分",
    "check|floor": "才可能",
    "%d: not over max": "%d：未超過最高",
    "fewest: %d tiles": "最低分：%d塊",
    "range: %d tiles": "範圍：%d塊",
    "too many here:": "此處無法計算：",
    "see the web page": "請見網頁",
}

PAGE = {
    # the web page (web/index.html, web/azul.js)
    "Azul Companion is open in another tab or window, which keeps the games: one page at a time writes them.":
        "Azul Companion 已在另一個分頁或視窗開啟，遊戲紀錄由它保存：一次只有一個頁面寫入。",
    "Use it here": "改在這裡使用",
    "the device's display": "裝置的螢幕",
    "Back (hold: undo)": "返回（長按：復原）",
    "Up": "上", "Down": "下", "Left": "左", "Right": "右", "OK": "OK",
    "Download record": "下載紀錄",
    "Download history": "下載歷史紀錄",
    "Open a record": "開啟紀錄",
    "starting MicroPython…": "正在啟動 MicroPython…",
    "Hold BACK to undo. Keys: arrows, Enter = OK, Esc/Backspace = BACK, u = undo. Games stay in this browser, also offline.":
        "長按 BACK 復原。鍵盤：方向鍵，Enter = OK，Esc/Backspace = BACK，u = 復原。遊戲紀錄保存在這個瀏覽器中，離線也可使用。",
    "no game yet: start one with New game": "還沒有遊戲：用「新遊戲」開始一局",
    "record downloaded": "已下載紀錄",
    "nothing stored yet": "還沒有保存任何紀錄",
    "history downloaded (%d file)": "已下載歷史紀錄（%d個檔案）",
    "history downloaded (%d files)": "已下載歷史紀錄（%d個檔案）",
    "%s not opened: %d KB, a record is under %d KB": "%s未開啟：%d KB，紀錄應小於%d KB",
    "opened %s": "已開啟%s",
    "could not start: %s": "無法啟動：%s",
    "error: %s": "錯誤：%s",
    # the reports (azul-companion export --lang, replay --lang)
    "Azul Companion: %d game": "Azul Companion：%d局",
    "Azul Companion: %d games": "Azul Companion：%d局",
    "Azul Companion report": "Azul Companion 報告",
    "Azul Companion record %s": "Azul Companion 紀錄 %s",
    "Deck %d, round %d": "第%d個抽牌堆 第%d輪",
    "Score": "分數",
    "total": "總分",
    "tie-break: %s": "平手判定：%s",
    "no round closed yet": "還沒有結束的輪",
    "winner": "勝者",
    "round %d": "第%d輪",
    "round %d/%d": "第%d/%d輪",
    "final after %s": "結束於%s",
    "after %s, final scoring to enter": "%s後，待輸入最終計分",
    "in progress, %s": "進行中，%s",
    # the games' titles (the boxes': 002, 001, 000, 004)
    "title|Azul": "花磚密語",
    "title|Azul: Stained Glass of Sintra": "花磚物語・琉璃之光",
    "title|Azul: Queen's Garden": "花磚物語・花園宮殿",
    "title|5211": "5211 花磚密語 特別版",
}
